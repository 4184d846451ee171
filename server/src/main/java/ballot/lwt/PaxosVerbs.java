package ballot.lwt;

import ballot.net.Codecs;
import ballot.net.Verb;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Reply;
import java.util.List;

/**
 * The internode requests of Paxos (ids 300–399). Each carries one acceptor request (docs/paxos.md §3); its response is
 * the acceptor's reply, so the core's fire-and-forget messages ride on request/response messaging. Prunes travel in
 * batches, each with an empty reply.
 */
final class PaxosVerbs {
    static final Verb<Prepare, Reply> PREPARE = new Verb<>(300, "PAXOS_PREPARE", PaxosCodec.PREPARE, PaxosCodec.REPLY);
    static final Verb<Propose, Reply> PROPOSE = new Verb<>(301, "PAXOS_PROPOSE", PaxosCodec.PROPOSE, PaxosCodec.REPLY);
    static final Verb<Commit, Reply> COMMIT = new Verb<>(302, "PAXOS_COMMIT", PaxosCodec.COMMIT, PaxosCodec.REPLY);
    /** The prunes of many partitions for one peer (PruneBatches). */
    static final Verb<List<Prune>, Void> PRUNE = new Verb<>(303, "PAXOS_PRUNE", PaxosCodec.PRUNES, Codecs.EMPTY);

    private PaxosVerbs() {}
}

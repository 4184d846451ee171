package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.PaxosKey;
import java.util.List;

/**
 * Phase 1 and the read in one message: promise {@code ballot}, and return these queries' results (§4.2).
 * {@code local}: the sender is the coordinator in the replica's own process, which sends no proposal of this ballot
 * to another replica before this one has accepted it durably; so the promise may stay in memory until the replica's
 * next write (§4.2.5). Never true over a network.
 */
public record Prepare(PaxosKey key, Ballot ballot, List<Bytes> queries, boolean local) implements Request {
    public Prepare {
        queries = List.copyOf(queries);
    }

    /** A prepare whose promise must be durable before the reply. */
    public Prepare(PaxosKey key, Ballot ballot, List<Bytes> queries) {
        this(key, ballot, queries, false);
    }
}

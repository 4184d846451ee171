package ballot.lwt;

import ballot.paxos.message.Accepted;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Committed;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Rejected;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;

/**
 * The words of a traced LWT's Paxos steps: what the coordinator asks each replica (with the ballot, so retries after
 * contention show as new ballots), what each replica answered, and what its acceptor did.
 */
final class PaxosTraces {
    private PaxosTraces() {}

    /** The coordinator sends {@code request} to {@code replica}. */
    static String sending(Request request, String replica) {
        if (request instanceof Prepare p) return "Paxos prepare of ballot " + p.ballot() + " to " + replica;
        if (request instanceof Propose p) return "Paxos propose of ballot " + p.proposal().ballot() + " to " + replica;
        if (request instanceof Commit c) return "Paxos commit of ballot " + c.decree().ballot() + " to " + replica;
        if (request instanceof Prune p) return "Paxos prune up to ballot " + p.upTo() + " to " + replica;
        return "Paxos " + request.getClass().getSimpleName() + " to " + replica;
    }

    /** The coordinator hears {@code reply} from {@code replica}. */
    static String received(Reply reply, String replica) {
        if (reply instanceof Promise p) return "Paxos promise of ballot " + p.ballot() + " from " + replica;
        if (reply instanceof Rejected r)
            return "Paxos " + r.phase().name().toLowerCase(java.util.Locale.ROOT) + " of ballot " + r.ballot() + " rejected by "
                    + replica + " (" + r.reason() + ", promised " + r.promised() + "): contention";
        if (reply instanceof Accepted a) return "Paxos proposal of ballot " + a.ballot() + " accepted by " + replica;
        if (reply instanceof Committed c) return "Paxos commit of ballot " + c.ballot() + " acknowledged by " + replica;
        return "Paxos " + reply.getClass().getSimpleName() + " from " + replica;
    }

    /** What this node's acceptor did with a traced request. */
    static String acceptor(Reply reply) {
        if (reply == null) return "Paxos prune done";
        if (reply instanceof Promise p) return "Promising ballot " + p.ballot();
        if (reply instanceof Rejected r)
            return "Rejecting ballot " + r.ballot() + " (" + r.reason() + "): promised " + r.promised();
        if (reply instanceof Accepted a) return "Accepting proposal of ballot " + a.ballot();
        if (reply instanceof Committed c) return "Committing ballot " + c.ballot();
        return "Answering " + reply.getClass().getSimpleName();
    }
}

package ballot.paxos.acceptor;

import ballot.paxos.Decree;
import ballot.paxos.message.Reply;
import java.util.List;

/**
 * The outcome of one acceptor transition. If {@code persist}, the caller makes {@code next} durable and applies
 * {@code apply} to the base table (atomically) <em>before</em> sending {@code reply}; if {@code reply} is a
 * {@link ballot.paxos.message.Promise} it first attaches its local read. {@code reply} is null when nothing is sent.
 * If also {@code deferrable} (a promise to the coordinator in the replica's own process, docs/paxos.md §4.2.5), the caller may
 * instead keep {@code next} in memory and reply at once, as long as it makes {@code next} durable before any later
 * state of the partition, and serves the partition from the memory copy until then.
 *
 * <p>{@code sync} says how durable: synced to disk (a promise or an acceptance, which bind this replica's future
 * votes, or a commit that clears an acceptance), or only written, surviving a crash of the process but perhaps not of
 * the machine (a prune, a purge, another commit: losing one leaves the replica as if the message had not arrived,
 * docs/paxos.md §4.15).
 */
public record Step(AcceptorState next, boolean persist, List<Decree> apply, Reply reply, boolean deferrable, boolean sync) {
    public Step {
        apply = List.copyOf(apply);
        if (!persist && !apply.isEmpty()) throw new IllegalArgumentException("applying decrees requires persisting");
        if (deferrable && (!persist || !apply.isEmpty())) throw new IllegalArgumentException("only a bare register change may be deferred");
    }

    /** A step whose change, if any, is synced before the reply. */
    public Step(AcceptorState next, boolean persist, List<Decree> apply, Reply reply, boolean deferrable) {
        this(next, persist, apply, reply, deferrable, true);
    }

    /** A step whose change, if any, is synced before the reply. */
    public Step(AcceptorState next, boolean persist, List<Decree> apply, Reply reply) {
        this(next, persist, apply, reply, false, true);
    }

    /** A change written before the reply but not synced: losing it to a power loss is harmless (§4.15). */
    static Step written(AcceptorState next, List<Decree> apply, Reply reply) {
        return new Step(next, true, apply, reply, false, false);
    }

    static Step reply(AcceptorState unchanged, Reply reply) {
        return new Step(unchanged, false, List.of(), reply);
    }
}

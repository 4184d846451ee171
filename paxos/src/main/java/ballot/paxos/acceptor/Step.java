package ballot.paxos.acceptor;

import ballot.paxos.Decree;
import ballot.paxos.message.Reply;
import java.util.List;

/**
 * The outcome of one acceptor transition. If {@code persist}, the caller makes {@code next} durable and applies
 * {@code apply} to the base table (atomically) <em>before</em> sending {@code reply}; if {@code reply} is a
 * {@link ballot.paxos.message.Promise} it first attaches its local read. {@code reply} is null when nothing is sent.
 * If also {@code deferrable} (a promise to the sole replica's own coordinator, docs/paxos.md §4.2.5), the caller may
 * instead keep {@code next} in memory and reply at once, as long as it makes {@code next} durable before any later
 * state of the partition, and serves the partition from the memory copy until then.
 */
public record Step(AcceptorState next, boolean persist, List<Decree> apply, Reply reply, boolean deferrable) {
    public Step {
        apply = List.copyOf(apply);
        if (!persist && !apply.isEmpty()) throw new IllegalArgumentException("applying decrees requires persisting");
        if (deferrable && (!persist || !apply.isEmpty())) throw new IllegalArgumentException("only a bare register change may be deferred");
    }

    public Step(AcceptorState next, boolean persist, List<Decree> apply, Reply reply) {
        this(next, persist, apply, reply, false);
    }

    static Step reply(AcceptorState unchanged, Reply reply) {
        return new Step(unchanged, false, List.of(), reply);
    }
}

package ballot.paxos.acceptor;

import ballot.paxos.Decree;
import ballot.paxos.message.Reply;
import java.util.List;

/**
 * The outcome of one acceptor transition. If {@code persist}, the caller makes {@code next} durable and applies
 * {@code apply} to the base table (atomically) <em>before</em> sending {@code reply}; if {@code reply} is a
 * {@link ballot.paxos.message.Promise} it first attaches its local read. {@code reply} is null when nothing is sent.
 */
public record Step(AcceptorState next, boolean persist, List<Decree> apply, Reply reply) {
    public Step {
        apply = List.copyOf(apply);
        if (!persist && !apply.isEmpty()) throw new IllegalArgumentException("applying decrees requires persisting");
    }

    static Step reply(AcceptorState unchanged, Reply reply) {
        return new Step(unchanged, false, List.of(), reply);
    }
}

package ballot.txn.coordinator;

import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Transition;
import ballot.txn.spi.PartitionCas;
import ballot.txn.step.Reply;
import ballot.txn.step.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** A CAS port the test drives by hand: steps wait until the test lands them, one by one, at the time it chooses. */
final class ManualCas implements PartitionCas<Long> {
    record Sent(PartitionKey key, Step<Long> step, Consumer<Reply> reply) {}

    final Map<PartitionKey, PartitionState<Long>> states = new HashMap<>();
    final List<Sent> pending = new ArrayList<>();
    long nowMicros;

    @Override
    public void apply(PartitionKey key, Step<Long> step, Consumer<Reply> reply) {
        pending.add(new Sent(key, step, reply));
    }

    PartitionState<Long> state(PartitionKey key) {
        return states.getOrDefault(key, PartitionState.of(null));
    }

    /** Lands the first pending step that matches and delivers its reply. */
    Reply land(Predicate<Sent> which) {
        Sent sent = pending.stream().filter(which).findFirst().orElseThrow(() -> new AssertionError("no such step in " + pending));
        pending.remove(sent);
        Transition<Long> t = sent.step().evaluate(state(sent.key()), ++nowMicros);
        if (t.changed()) states.put(sent.key(), t.next());
        sent.reply().accept(t.reply());
        return t.reply();
    }

    void landAll() {
        while (!pending.isEmpty()) land(s -> true);
    }

    static Predicate<Sent> step(Class<?> type, PartitionKey key) {
        return s -> type.isInstance(s.step()) && s.key().equals(key);
    }
}

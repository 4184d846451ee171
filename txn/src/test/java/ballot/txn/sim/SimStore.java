package ballot.txn.sim;

import ballot.txn.Attempt;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;
import ballot.txn.TxnId;
import ballot.txn.step.Fence;
import ballot.txn.step.Finalize;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.Reply;
import ballot.txn.step.Reply.Placement;
import ballot.txn.step.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The partitions: linearizable registers, each step evaluated atomically at the moment the simulated CAS lands. It
 * logs what the checker needs (when each intent was placed and what it read, every roll-forward, every refusal, every
 * 1PC commit, in one global order) and can run a planted {@link Bug} instead of the real rules.
 */
final class SimStore {
    static final long EPOCH_MICROS = 1_700_000_000_000_000L;

    /** Broken participants the checker must catch (PlantedBugSimulationTest). */
    enum Bug {
        NONE,
        /** A placement that meets another intent answers PLACED without locking: a commit without every intent. */
        PLACED_WITHOUT_INTENT,
        /** Recovery's fence does not see the intent: recovery aborts implicitly committed transactions. */
        FENCE_BLIND,
        /** A placement ignores its transaction's markers: fenced or applied attempts lock again. */
        PLACE_IGNORES_MARKERS,
        /**
         * A commit's Finalize answers the committed record but leaves it staging: its coordinator resolves the intents
         * of a record that is not final, and recovery, finding them gone past the deadline, aborts a transaction that
         * was applied (the order of docs/txn.md §4.3 broken).
         */
        FINALIZE_FORGOTTEN
    }

    record Placed(long seq, long atNanos, Attempt attempt, PartitionKey key, Long seen) {}

    record Applied(long seq, long atNanos, Attempt attempt, PartitionKey key, Long before, Long after) {}

    record Refused(long seq, long atNanos, Attempt attempt, PartitionKey key, Long seen, String reason) {}

    record OnePhaseCommitted(long seq, long atNanos, Attempt attempt, PartitionKey key, Long seen) {}

    private final SimLoop loop;
    private final Bug bug;
    private final Map<PartitionKey, Long> skewMicros;
    private final SortedMap<PartitionKey, PartitionState<Long>> states = new TreeMap<>();
    private final Map<PartitionKey, Long> lastMicros = new HashMap<>();
    private long seq;
    final Map<Attempt, Map<PartitionKey, Placed>> placed = new HashMap<>();
    final List<Applied> applied = new ArrayList<>();
    final List<Refused> refused = new ArrayList<>();
    final List<OnePhaseCommitted> onePhase = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    /** Records the retention rule dropped, for the checker (by home, then transaction). */
    private final Map<PartitionKey, Map<TxnId, Record>> dropped = new HashMap<>();
    long evaluations;
    /** {@code -Dballot.txn.sim.trace=<id prefix>} prints every step that touches that transaction. */
    private static final String TRACE = System.getProperty("ballot.txn.sim.trace", "");

    SimStore(SimLoop loop, Bug bug, Map<PartitionKey, Long> skewMicros) {
        this.loop = loop;
        this.bug = bug;
        this.skewMicros = skewMicros;
    }

    void put(PartitionKey key, Long value) {
        states.put(key, PartitionState.of(value));
    }

    PartitionState<Long> state(PartitionKey key) {
        return states.getOrDefault(key, PartitionState.of(null));
    }

    SortedMap<PartitionKey, PartitionState<Long>> states() {
        return states;
    }

    /** A transaction's record at its home, or the one the retention rule dropped there. */
    Record record(PartitionKey home, TxnId id) {
        Record live = state(home).record(id);
        return live != null ? live : dropped.getOrDefault(home, Map.of()).get(id);
    }

    /** The partition time a step evaluated now would get, without taking it. */
    long timeMicros(PartitionKey key) {
        long micros = EPOCH_MICROS + loop.now() / 1000 + skewMicros.getOrDefault(key, 0L);
        return Math.max(micros, lastMicros.getOrDefault(key, Long.MIN_VALUE) + 1);
    }

    /** Partition time: the sim's clock with the partition's skew, strictly increasing per partition (§1). */
    private long partitionMicros(PartitionKey key) {
        long micros = timeMicros(key);
        lastMicros.put(key, micros);
        return micros;
    }

    Reply evaluate(PartitionKey key, Step<Long> step) {
        evaluations++;
        PartitionState<Long> before = state(key);
        Transition<Long> t = run(step, before, partitionMicros(key));
        long s = ++seq;
        log(s, key, step, before, t);
        if (!TRACE.isEmpty() && (step.toString().contains(TRACE) || String.valueOf(before.intent()).contains(TRACE)))
            System.out.println("TRACE t=" + loop.now() / 1000 + "us #" + s + " " + key + " " + step + " | before " + before.value()
                    + " " + before.intent() + " " + before.markers() + " -> " + t.reply() + (t.changed() ? " WRITES " + t.next().value()
                    + " " + t.next().intent() + " " + t.next().markers() + " " + t.next().records().values() : ""));
        if (t.changed()) states.put(key, t.next());
        for (Record gone : before.records().values()) {
            if (t.next().record(gone.id()) != null) continue;
            dropped.computeIfAbsent(key, k -> new HashMap<>()).put(gone.id(), gone);
            // Retention (docs/txn.md §2): no intent may outlive its record.
            states.forEach((k, other) -> {
                if (other.intentOf(gone.id()) != null) violations.add("record " + gone + " dropped while " + k + " holds its intent");
            });
        }
        Long value = t.next().value();
        if (value != null && value < 0) violations.add("overdraft: " + key + " = " + value + " after " + step);
        Intent<Long> intent = t.next().intent();
        if (intent != null && intent.value() != null && intent.value() < 0)
            violations.add("overdraft intent: " + key + " = " + intent.value() + " by " + intent.attempt());
        return t.reply();
    }

    private Transition<Long> run(Step<Long> step, PartitionState<Long> before, long micros) {
        switch (bug) {
            case PLACED_WITHOUT_INTENT -> {
                Transition<Long> t = step.evaluate(before, micros);
                if (step instanceof Place<Long> && t.reply() instanceof Placement<?> p
                        && (p.outcome() == Placement.Outcome.WAIT || p.outcome() == Placement.Outcome.DIED))
                    return new Transition<>(before, new Placement<>(Placement.Outcome.PLACED, before.value(), null, null, null), false);
                return t;
            }
            case FENCE_BLIND -> {
                if (step instanceof Fence<Long> fence) {
                    TxnId id = fence.attempt().id();
                    PartitionState<Long> hidden = without(before.withIntent(null), id);
                    Transition<Long> t = fence.evaluate(hidden, micros);
                    Marker old = before.markers().get(id);
                    PartitionState<Long> next = t.next().withIntent(before.intent());
                    if (old != null) next = next.withMarker(id, old);
                    return new Transition<>(next, t.reply(), true);
                }
                return step.evaluate(before, micros);
            }
            case PLACE_IGNORES_MARKERS -> {
                if (step instanceof Place<Long> place) {
                    TxnId id = place.attempt().id();
                    Transition<Long> t = place.evaluate(without(before, id), micros);
                    Marker old = before.markers().get(id);
                    PartitionState<Long> next = t.next();
                    if (old != null && !next.markers().containsKey(id)) next = next.withMarker(id, old);
                    return new Transition<>(next, t.reply(), !next.equals(before));
                }
                return step.evaluate(before, micros);
            }
            case FINALIZE_FORGOTTEN -> {
                Transition<Long> t = step.evaluate(before, micros);
                if (step instanceof Finalize<Long> f && f.commit() && before.record(f.attempt().id()) != null
                        && before.record(f.attempt().id()).status() == Record.Status.STAGING)
                    return new Transition<>(before, t.reply(), false);
                return t;
            }
            default -> {
                return step.evaluate(before, micros);
            }
        }
    }

    private static PartitionState<Long> without(PartitionState<Long> state, TxnId id) {
        SortedMap<TxnId, Marker> markers = new TreeMap<>(state.markers());
        markers.remove(id);
        return new PartitionState<>(state.value(), state.intent(), state.reservation(), markers, state.records());
    }

    private void log(long s, PartitionKey key, Step<Long> step, PartitionState<Long> before, Transition<Long> t) {
        long now = loop.now();
        Intent<Long> was = before.intent();
        Intent<Long> is = t.next().intent();
        if (was != null && (is == null || !is.attempt().equals(was.attempt()))) {
            // The APPLIED marker may be collected in the same step if the deadline has passed (§2); a changed value
            // shows the roll-forward too (transfers always change it; a read-only roll-forward changes nothing).
            Marker m = t.next().markers().get(was.attempt().id());
            boolean rolledForward = (m != null && m.kind() == Marker.Kind.APPLIED && m.epoch() == was.attempt().epoch()
                    && !m.equals(before.markers().get(was.attempt().id())))
                    || !java.util.Objects.equals(t.next().value(), before.value());
            if (rolledForward) applied.add(new Applied(s, now, was.attempt(), key, before.value(), was.value()));
        }
        if (is != null && (was == null || !was.attempt().equals(is.attempt()))) {
            Map<PartitionKey, Placed> byKey = placed.computeIfAbsent(is.attempt(), a -> new TreeMap<>());
            if (byKey.containsKey(key)) violations.add("attempt " + is.attempt() + " placed twice at " + key);
            else byKey.put(key, new Placed(s, now, is.attempt(), key, t.next().value()));
        }
        if (t.reply() instanceof Placement<?> p) {
            if (p.outcome() == Placement.Outcome.REFUSED && step instanceof Place<Long> place)
                refused.add(new Refused(s, now, place.attempt(), key, (Long) p.seen(), p.reason()));
            if (p.outcome() == Placement.Outcome.DECIDED && step instanceof OnePhase<Long> one
                    && p.record().status() == Record.Status.COMMITTED)
                onePhase.add(new OnePhaseCommitted(s, now, one.attempt(), key, (Long) p.seen()));
        }
    }
}

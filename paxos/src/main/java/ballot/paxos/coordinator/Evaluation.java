package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.spi.ReadModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A batch evaluated in order on one state (docs/paxos.md §4.4, §8): request k sees the state after the updates of
 * requests 0..k-1, and its update (if any) becomes entry i of the decree, written at {@code ballot.micros + i}.
 */
final class Evaluation {
    final List<Bytes> entries = new ArrayList<>();
    /** The state each request's condition was evaluated on. */
    final Map<Pending, Bytes> seen = new IdentityHashMap<>();
    /** Requests whose update is an entry. */
    final Map<Pending, Integer> entryIndex = new IdentityHashMap<>();
    /** The state of every query after the entries; a held promise keeps this, not the evaluation and its requests. */
    final States finalStates;

    private Evaluation(ReadModel model, Ballot ballot, Map<Bytes, Bytes> states) {
        this.finalStates = new States(model, ballot, states, entries);
    }

    static Evaluation run(ReadModel model, List<Pending> batch, Map<Bytes, Bytes> states, Ballot ballot) {
        Evaluation e = new Evaluation(model, ballot, new LinkedHashMap<>(states));
        for (Pending p : batch) {
            Bytes query = p.request.query();
            Bytes current = e.finalStates.get().get(query);
            if (current == null) throw new IllegalStateException("no state for query " + query + " of " + p);
            long timestamp = ballot.micros() + e.entries.size();
            e.seen.put(p, current);
            Optional<Bytes> update = p.request.evaluate(current, timestamp);
            if (update.isEmpty()) continue;
            e.entryIndex.put(p, e.entries.size());
            e.entries.add(update.get());
        }
        return e;
    }

    /**
     * The state of every query after all entries so far, advanced on demand: a round's last update is applied only
     * if a held promise's cache is ever read (a partition written once never needs it).
     */
    static final class States implements Supplier<Map<Bytes, Bytes>> {
        private final ReadModel model;
        private final Ballot ballot;
        private final Map<Bytes, Bytes> states;
        private final List<Bytes> entries;
        /** How many of {@code entries} {@code states} includes. */
        private int applied;

        private States(ReadModel model, Ballot ballot, Map<Bytes, Bytes> states, List<Bytes> entries) {
            this.model = model;
            this.ballot = ballot;
            this.states = states;
            this.entries = entries;
        }

        @Override
        public Map<Bytes, Bytes> get() {
            for (; applied < entries.size(); applied++) {
                long timestamp = ballot.micros() + applied;
                for (Map.Entry<Bytes, Bytes> state : states.entrySet())
                    state.setValue(model.apply(state.getKey(), state.getValue(), entries.get(applied), timestamp));
            }
            return states;
        }
    }

    /** The states after applying a decided decree's entries (a replayed proposal, §4.3). */
    static Map<Bytes, Bytes> applyEntries(ReadModel model, Map<Bytes, Bytes> states, List<Bytes> entries, Ballot ballot) {
        Map<Bytes, Bytes> result = new HashMap<>(states);
        for (int i = 0; i < entries.size(); i++) {
            long timestamp = ballot.micros() + i;
            for (Map.Entry<Bytes, Bytes> state : result.entrySet())
                state.setValue(model.apply(state.getKey(), state.getValue(), entries.get(i), timestamp));
        }
        return result;
    }
}

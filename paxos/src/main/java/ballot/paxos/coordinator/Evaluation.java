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
    /** The state of every query after all entries. */
    final Map<Bytes, Bytes> finalStates;

    private Evaluation(Map<Bytes, Bytes> states) {
        this.finalStates = states;
    }

    static Evaluation run(ReadModel model, List<Pending> batch, Map<Bytes, Bytes> states, Ballot ballot) {
        Evaluation e = new Evaluation(new LinkedHashMap<>(states));
        for (Pending p : batch) {
            Bytes query = p.request.query();
            Bytes current = e.finalStates.get(query);
            if (current == null) throw new IllegalStateException("no state for query " + query + " of " + p);
            long timestamp = ballot.micros() + e.entries.size();
            e.seen.put(p, current);
            Optional<Bytes> update = p.request.evaluate(current, timestamp);
            if (update.isEmpty()) continue;
            e.entryIndex.put(p, e.entries.size());
            e.entries.add(update.get());
            for (Map.Entry<Bytes, Bytes> state : e.finalStates.entrySet())
                state.setValue(model.apply(state.getKey(), state.getValue(), update.get(), timestamp));
        }
        return e;
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

package ballot.cql.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The traces of several requests whose work is shared, as a Paxos round serves every request queued on its partition:
 * each step, and each replica's events, go to every one of them. Immutable, so a step in flight keeps the traces it
 * started with while requests join and leave.
 */
public final class SharedTrace implements CoordinatorTrace {
    /** Two or more. */
    private final List<CoordinatorTrace> traces;

    private SharedTrace(List<CoordinatorTrace> traces) {
        this.traces = List.copyOf(traces);
    }

    /** {@code traces} (null: none) and {@code joining}. */
    public static CoordinatorTrace with(CoordinatorTrace traces, CoordinatorTrace joining) {
        if (traces == null) return joining;
        List<CoordinatorTrace> all = new ArrayList<>(members(traces));
        all.add(joining);
        return new SharedTrace(all);
    }

    /** {@code traces} without one occurrence of {@code leaving}; null when none is left. */
    public static CoordinatorTrace without(CoordinatorTrace traces, CoordinatorTrace leaving) {
        List<CoordinatorTrace> rest = new ArrayList<>(members(traces));
        rest.remove(leaving);
        return rest.isEmpty() ? null : rest.size() == 1 ? rest.get(0) : new SharedTrace(rest);
    }

    private static List<CoordinatorTrace> members(CoordinatorTrace traces) {
        return traces instanceof SharedTrace shared ? shared.traces : List.of(traces);
    }

    /** The first request's: a replica records its events the same way whichever session it is told. */
    @Override
    public UUID id() {
        return traces.get(0).id();
    }

    @Override
    public void event(String activity) {
        for (CoordinatorTrace t : traces) t.event(activity);
    }

    @Override
    public void reply(List<TraceEvent> replicaEvents, String activity) {
        for (CoordinatorTrace t : traces) t.reply(replicaEvents, activity);
    }

    @Override
    public String toString() {
        return "SharedTrace" + traces;
    }
}

package ballot.paxos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The (ballot, origin) of the last few decrees an acceptor applied, and the floor below which it forgot them
 * (docs/paxos.md §4.10). It lets a coordinator whose proposal is in doubt prove the outcome: every decided decree
 * that is not the latest was applied by a whole quorum (the acceptors of its successor, §5.2), so one of any quorum
 * remembers it unless that one's floor has passed it.
 */
public record RecentDecrees(List<Id> ids, Ballot floor) {
    public record Id(Ballot ballot, Ballot origin) {}

    public static final int SIZE_MAX = 8;
    public static final RecentDecrees NONE = new RecentDecrees(List.of(), Ballot.ZERO);

    public RecentDecrees {
        ids = List.copyOf(ids);
        java.util.Objects.requireNonNull(floor, "floor");
        if (ids.size() > SIZE_MAX) throw new IllegalArgumentException(ids.size() + " recent decrees; limit is " + SIZE_MAX);
    }

    /** Remembers an applied decree, forgetting the lowest-ballot one when full (which raises the floor). */
    public RecentDecrees with(Decree decree) {
        Id id = new Id(decree.ballot(), decree.origin());
        if (!decree.ballot().isAfter(floor) || ids.contains(id)) return this;
        List<Id> next = new ArrayList<>(ids);
        next.add(id);
        Ballot nextFloor = floor;
        if (next.size() > SIZE_MAX) {
            Id lowest = next.stream().min(Comparator.comparing(Id::ballot)).orElseThrow();
            next.remove(lowest);
            nextFloor = Ballot.max(floor, lowest.ballot());
        }
        return new RecentDecrees(next, nextFloor);
    }

    public boolean containsOrigin(Ballot origin) {
        for (Id id : ids) if (id.origin().equals(origin)) return true;
        return false;
    }

    /** Whether every decree applied here with a ballot at or after {@code ballot} is remembered. */
    public boolean covers(Ballot ballot) {
        return floor.isBefore(ballot);
    }
}

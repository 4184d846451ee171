package ballot.paxos;

import java.util.List;
import java.util.Map;

/**
 * A value proposed with {@code ballot}: its entries, the decree it follows ({@code predecessor}, which every acceptor
 * applies before accepting, docs/paxos.md §4.5), and — for a proposal evaluated on a coordinator's cached state —
 * the plain-write version each replica must still have for the proposal to be accepted there (§4.8, §5.7).
 *
 * <p>{@code expectedVersions == null} marks an unchecked proposal (evaluated on reads taken after the requests
 * arrived). A re-proposal copies entries, origin, predecessor and expected versions unchanged.
 */
public record Proposal(Ballot ballot, Ballot origin, List<Bytes> entries, Decree predecessor,
        Map<NodeId, Long> expectedVersions) {
    public Proposal {
        java.util.Objects.requireNonNull(ballot, "ballot");
        java.util.Objects.requireNonNull(origin, "origin");
        java.util.Objects.requireNonNull(predecessor, "predecessor");
        entries = List.copyOf(entries);
        if (expectedVersions != null) expectedVersions = Map.copyOf(expectedVersions);
        if (origin.isAfter(ballot))
            throw new IllegalArgumentException("proposal origin " + origin + " after its ballot " + ballot);
        if (!predecessor.ballot().isBefore(ballot))
            throw new IllegalArgumentException("proposal " + ballot + " does not follow its predecessor " + predecessor);
    }

    public boolean isChecked() {
        return expectedVersions != null;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The same entries re-proposed with a later ballot (a replay of an incomplete proposal, §4.3). */
    public Proposal reproposedWith(Ballot newBallot, Decree newPredecessor) {
        return new Proposal(newBallot, origin, entries, newPredecessor, expectedVersions);
    }

    public Decree toDecree() {
        return new Decree(ballot, origin, entries);
    }

    public Proposal withPredecessorPruned() {
        return predecessor.isPruned() ? this : new Proposal(ballot, origin, entries, predecessor.pruned(), expectedVersions);
    }

    public long spanEndMicros() {
        return Decree.spanEnd(ballot, entries.size());
    }

    @Override
    public String toString() {
        return "Proposal{" + ballot + (origin.equals(ballot) ? "" : " origin " + origin) + " " + entries.size()
                + " entries after " + predecessor.ballot() + (expectedVersions == null ? "" : " checked " + expectedVersions) + "}";
    }
}

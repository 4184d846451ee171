package ballot.paxos.coordinator;

import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import java.util.Collection;
import java.util.Set;

/**
 * How many replicas must have applied a decided update to their base table before the client hears APPLIED, and
 * which replicas count (docs/paxos.md §4.6). {@code acks} 0 is ANY: answered once decided. The server maps CQL levels
 * onto these (§12): ONE, QUORUM and ALL count every replica, LOCAL_ONE and LOCAL_QUORUM only the coordinator's data
 * center.
 */
public record CommitLevel(int acks, Set<NodeId> counted) {
    /** Answered once decided: durable in a quorum's Paxos registers, applied to base tables later. */
    public static final CommitLevel ANY = new CommitLevel(0, Set.of());

    public CommitLevel {
        if (acks < 0) throw new IllegalArgumentException("commit level needs " + acks + " acknowledgements; must be >= 0");
        counted = Set.copyOf(counted);
    }

    /** {@code acks} of {@code counted}. */
    public static CommitLevel of(int acks, Collection<NodeId> counted) {
        return new CommitLevel(acks, Set.copyOf(counted));
    }

    /** {@code acks} of every replica of the electorate, voters and learners. */
    public static CommitLevel anyOf(int acks, Electorate electorate) {
        return of(acks, electorate.replicas());
    }

    /** A majority of every replica of the electorate. */
    public static CommitLevel quorum(Electorate electorate) {
        return anyOf(electorate.replicas().size() / 2 + 1, electorate);
    }

    /** Every replica of the electorate. */
    public static CommitLevel all(Electorate electorate) {
        return anyOf(electorate.replicas().size(), electorate);
    }

    /** Whether {@code applied} make this level: enough of them count towards it. */
    boolean metBy(Collection<NodeId> applied) {
        return countedIn(applied) >= acks;
    }

    /** How many of {@code applied} count towards this level. */
    int countedIn(Collection<NodeId> applied) {
        int n = 0;
        for (NodeId node : applied) if (counted.contains(node)) n++;
        return n;
    }

    @Override
    public String toString() {
        return acks == 0 ? "ANY" : acks + " of " + counted;
    }
}

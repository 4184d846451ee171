package ballot.paxos.acceptor;

import ballot.paxos.Ballot;
import ballot.paxos.Decree;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;

/**
 * One replica's Paxos registers for one partition (docs/paxos.md §2):
 * <ul>
 *   <li>{@code promised}: no prepare or proposal with an earlier ballot is accepted;
 *   <li>{@code accepted}: the latest accepted proposal not yet known committed here (null if none);
 *   <li>{@code committed}: the latest decree applied to this replica's base table (entries dropped once pruned);
 *   <li>{@code spanEndMicros}: the last write timestamp of any decree accepted or applied here; a later ballot must
 *       start after it, so decrees' timestamps increase along the chain (§5.6);
 *   <li>{@code recent}: which decrees were applied here lately, to settle in-doubt proposals (§4.10).
 * </ul>
 * Invariant: committed < accepted <= promised, and committed <= promised.
 */
public record AcceptorState(Ballot promised, Proposal accepted, Decree committed, long spanEndMicros, RecentDecrees recent) {
    public static final AcceptorState EMPTY = new AcceptorState(Ballot.ZERO, null, Decree.NONE, 0, RecentDecrees.NONE);

    public AcceptorState {
        java.util.Objects.requireNonNull(promised, "promised");
        java.util.Objects.requireNonNull(committed, "committed");
        java.util.Objects.requireNonNull(recent, "recent");
        if (committed.ballot().isAfter(promised))
            throw new IllegalStateException("committed " + committed + " after promise " + promised);
        if (accepted != null) {
            if (accepted.ballot().isAfter(promised))
                throw new IllegalStateException("accepted " + accepted + " after promise " + promised);
            if (!accepted.ballot().isAfter(committed.ballot()))
                throw new IllegalStateException("accepted " + accepted + " not after commit " + committed);
            if (accepted.spanEndMicros() > spanEndMicros)
                throw new IllegalStateException("accepted " + accepted + " ends after span end " + spanEndMicros);
        }
        if (!committed.ballot().isZero() && committed.ballot().micros() > spanEndMicros)
            throw new IllegalStateException("committed " + committed + " starts after span end " + spanEndMicros);
    }

    /**
     * The registers of a partition that has none: nothing promised, accepted or committed, and no ballot at or before
     * {@code floorMicros} (the replica's ballot floor, docs/paxos.md §4.13). Persisting it deletes the registers.
     */
    public static AcceptorState floor(long floorMicros) {
        if (floorMicros == 0) return EMPTY;
        // Decrees applied here at or before the floor are forgotten: no in-doubt proposal is proven lost by them (§4.10).
        RecentDecrees forgotten = new RecentDecrees(java.util.List.of(),
                new Ballot(floorMicros, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));
        return new AcceptorState(Ballot.ZERO, null, Decree.NONE, floorMicros, forgotten);
    }

    /** True if these registers say nothing but a floor: the store keeps no registers for them (§4.13). */
    public boolean isFloor() {
        return promised.isZero() && accepted == null && committed.ballot().isZero() && recent.ids().isEmpty();
    }

    /** The earliest micros a new ballot may have here. */
    public long minMicros() {
        return spanEndMicros + 1;
    }

    AcceptorState withPromised(Ballot ballot) {
        return new AcceptorState(ballot, accepted, committed, spanEndMicros, recent);
    }
}

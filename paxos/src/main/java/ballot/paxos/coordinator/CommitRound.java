package ballot.paxos.coordinator;

import ballot.paxos.Decree;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A decided decree on its way to the replicas' base tables (docs/paxos.md §4.6): which replicas applied it (a
 * Committed reply, or an Accepted reply to a proposal that carried it as predecessor), and which requests wait for
 * their commit level. Once every replica applied it (voters and learners), it can be pruned (§4.7).
 */
final class CommitRound {
    /** A request answered {@code outcome} once the decree is applied at its commit level. */
    record Waiter(Pending pending, ballot.paxos.Bytes seen, CasResult.Outcome outcome) {}

    final Decree decree;
    final Electorate electorate;
    final Set<NodeId> applied = new LinkedHashSet<>();
    /**
     * Replicas whose acknowledgement cost no extra round trip: they applied the decree as they accepted it (§4.6.1), or
     * their promise showed it applied (§4.4).
     */
    final Set<NodeId> appliedWithoutRoundTrip = new LinkedHashSet<>();
    /** Replicas expected to apply it as they accept it: the first commit message skips them, the retries do not. */
    final Set<NodeId> applyingOnAccept = new LinkedHashSet<>();
    final List<Waiter> waiters = new ArrayList<>();
    long nextSendNanos;
    final long giveUpNanos;
    /** The commit was left to ride on the next fast proposal; send it if that round does not happen. */
    boolean deferred;

    CommitRound(Decree decree, Electorate electorate, long nextSendNanos, long giveUpNanos) {
        this.decree = decree;
        this.electorate = electorate;
        this.nextSendNanos = nextSendNanos;
        this.giveUpNanos = giveUpNanos;
    }

    Set<NodeId> unapplied() {
        Set<NodeId> nodes = new LinkedHashSet<>(electorate.replicas());
        nodes.removeAll(applied);
        return nodes;
    }

    /** Voters and learners alike: a learner may vote in another round of the partition (§4.7). */
    boolean appliedEverywhere() {
        return applied.size() == electorate.voters().size() + electorate.learners().size();
    }
}

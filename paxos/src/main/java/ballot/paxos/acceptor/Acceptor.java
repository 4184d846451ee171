package ballot.paxos.acceptor;

import ballot.paxos.Ballot;
import ballot.paxos.Decree;
import ballot.paxos.NodeId;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Committed;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Rejected;
import java.util.ArrayList;
import java.util.List;

/**
 * The acceptor's transitions: pure functions from (registers, request) to a {@link Step} (registers to persist,
 * decrees to apply, reply to send). The numbered rules are docs/paxos.md §4.2 (prepare), §4.5 (propose), §4.6
 * (commit) and §4.7 (prune); every handler is idempotent so that retransmitted and duplicated requests are harmless.
 */
public final class Acceptor {
    private Acceptor() {}

    /**
     * §4.2: promise a ballot later than every promise, whose micros follow every decree seen here. The promise to the
     * coordinator in this replica's process may wait in memory for the next write (§4.2.5).
     */
    public static Step onPrepare(AcceptorState state, Prepare prepare) {
        Ballot ballot = prepare.ballot();
        if (ballot.isBefore(state.promised()))
            return Step.reply(state, reject(state, prepare.key(), ballot, Rejected.Phase.PREPARE, Rejected.Reason.SUPERSEDED, 0));
        if (ballot.equals(state.promised())) // a retransmission: promise again, nothing changes
            return Step.reply(state, promise(state, prepare));
        if (ballot.micros() <= state.spanEndMicros())
            return Step.reply(state, reject(state, prepare.key(), ballot, Rejected.Phase.PREPARE, Rejected.Reason.SUPERSEDED, 0));
        AcceptorState next = state.withPromised(ballot);
        return new Step(next, true, List.of(), promise(next, prepare), prepare.local());
    }

    /**
     * §4.5: accept a proposal whose ballot is not before the promise, after applying its predecessor; a checked
     * proposal also needs this replica's plain-write version to be the expected one, unless this replica already
     * accepted the same origin (§5.7). Optionally promise the coordinator's next ballot in the same write (§4.8). The
     * electorate's sole replica also applies what it accepts, and prunes it: nobody else needs its entries (§4.6). A
     * replica whose acceptance the proposal says completes a quorum applies it too (§4.6.1).
     */
    public static Step onPropose(NodeId self, AcceptorState state, Propose propose, long plainVersion) {
        Proposal proposal = propose.proposal();
        Ballot ballot = proposal.ballot();
        Decree committed = state.committed();
        if (!committed.ballot().isBefore(ballot)) {
            if (committed.ballot().equals(ballot)) // already accepted and committed: a retransmission
                return Step.reply(state, new Accepted(propose.key(), ballot, proposal.predecessor().ballot(), false, true));
            return Step.reply(state, reject(state, propose.key(), ballot, Rejected.Phase.PROPOSE, Rejected.Reason.SUPERSEDED, plainVersion));
        }
        Proposal accepted = state.accepted();
        if (accepted != null && accepted.ballot().equals(ballot)) // a retransmission
            return Step.reply(state, new Accepted(propose.key(), ballot, proposal.predecessor().ballot(),
                    propose.promiseNext() != null && !state.promised().isBefore(propose.promiseNext())));
        if (ballot.isBefore(state.promised()) || ballot.micros() <= state.spanEndMicros())
            return Step.reply(state, reject(state, propose.key(), ballot, Rejected.Phase.PROPOSE, Rejected.Reason.SUPERSEDED, plainVersion));
        if (proposal.isChecked()) {
            boolean holdsOrigin = accepted != null && accepted.origin().equals(proposal.origin());
            Long expected = proposal.expectedVersions().get(self);
            if (!holdsOrigin && (expected == null || expected != plainVersion))
                return Step.reply(state, reject(state, propose.key(), ballot, Rejected.Phase.PROPOSE, Rejected.Reason.STALE, plainVersion));
        }

        List<Decree> apply = new ArrayList<>(1);
        RecentDecrees recent = state.recent();
        Decree predecessor = proposal.predecessor();
        long spanEnd = Math.max(state.spanEndMicros(), proposal.spanEndMicros());
        if (!predecessor.ballot().isZero()) {
            if (predecessor.isPruned()) {
                // Pruned means applied at every replica of the electorate that pruned it (§4.7), or here before the
                // registers were purged (a floor state at or after it, §4.13). A replica outside that electorate (one
                // the ring moved the partition away from, §4.14) cannot apply it: it refuses, and the round counts
                // on the replicas that did.
                boolean purgedSince = committed.ballot().isZero() && predecessor.ballot().micros() <= state.spanEndMicros();
                if (predecessor.ballot().isAfter(committed.ballot()) && !purgedSince)
                    return Step.reply(state, reject(state, propose.key(), ballot, Rejected.Phase.PROPOSE, Rejected.Reason.SUPERSEDED, plainVersion));
            } else {
                if (!predecessor.ballot().equals(committed.ballot())) {
                    if (!predecessor.isEmpty()) apply.add(predecessor); // harmless if applied before: last write wins
                    recent = recent.with(predecessor);
                }
                if (predecessor.ballot().isAfter(committed.ballot())) committed = predecessor;
                spanEnd = Math.max(spanEnd, predecessor.spanEndMicros());
            }
        }
        Ballot promised = ballot;
        boolean promisedNext = false;
        Ballot next = propose.promiseNext();
        if (next != null && next.isAfter(ballot) && next.micros() > proposal.spanEndMicros()) {
            promised = next;
            promisedNext = true;
        }
        promised = Ballot.max(promised, state.promised());
        AcceptorState after = new AcceptorState(promised, proposal, committed, spanEnd, recent);
        boolean applied = propose.decides().onAccept() && !proposal.isEmpty();
        if (applied) {
            // This acceptance completes a quorum (§4.6.1): the proposal is decided, so commit it in the same step. The
            // sole replica also prunes it: every replica applied it.
            Step commit = onCommit(after, new Commit(propose.key(), proposal.toDecree()));
            apply.addAll(commit.apply());
            after = commit.next();
            if (propose.decides() == Propose.Decides.SOLE) after = prune(after, ballot);
        }
        if (propose.pruneUpTo() != null) after = prune(after, propose.pruneUpTo());
        return new Step(after, true, apply, new Accepted(propose.key(), ballot, predecessor.ballot(), promisedNext, applied));
    }

    /** §4.6: apply a decided decree (unconditionally: it is chosen) and advance the registers past it. */
    public static Step onCommit(AcceptorState state, Commit commit) {
        Decree decree = commit.decree();
        Decree committed = state.committed();
        if (decree.ballot().equals(committed.ballot())) // already applied: a retransmission or a duplicate
            return Step.reply(state, new Committed(commit.key(), decree.ballot()));
        Decree newCommitted = decree.ballot().isAfter(committed.ballot()) ? decree : committed;
        Proposal accepted = state.accepted();
        if (accepted != null && !accepted.ballot().isAfter(newCommitted.ballot())) accepted = null;
        AcceptorState next = new AcceptorState(Ballot.max(state.promised(), decree.ballot()), accepted, newCommitted,
                Math.max(state.spanEndMicros(), decree.spanEndMicros()), state.recent().with(decree));
        List<Decree> apply = decree.isEmpty() ? List.of() : List.of(decree);
        // Clearing an acceptance is synced (§4.15): lost, it would leave a decided proposal to be finished again, over
        // later writes, once the other replicas have purged the decree that outranks it.
        if (state.accepted() != null && accepted == null) return new Step(next, true, apply, new Committed(commit.key(), decree.ballot()));
        return Step.written(next, apply, new Committed(commit.key(), decree.ballot()));
    }

    /** §4.7: every replica has applied {@code upTo}: forget the copies of its entries (and older ones). */
    public static Step onPrune(AcceptorState state, Prune prune) {
        AcceptorState next = prune(state, prune.upTo());
        return next.equals(state) ? Step.reply(state, null) : Step.written(next, List.of(), null);
    }

    /**
     * §4.13: delete the registers if nothing can need them: no uncommitted proposal, a pruned committed decree, and no
     * promise or decree after the replica's ballot floor. The caller has made {@code floorMicros} durable first.
     */
    public static Step onPurge(AcceptorState state, long floorMicros) {
        // Pruned: every replica applied the decree, and with it cleared every older accepted proposal, so no replica
        // holds one that these registers' committed decree is needed to outrank (§4.13).
        boolean applied = state.committed().ballot().isZero() || state.committed().isPruned();
        boolean purgeable = !state.isFloor() && state.accepted() == null && applied
                && state.promised().micros() <= floorMicros && state.spanEndMicros() <= floorMicros;
        return purgeable ? Step.written(AcceptorState.floor(floorMicros), List.of(), null) : Step.reply(state, null);
    }

    private static AcceptorState prune(AcceptorState state, Ballot upTo) {
        Decree committed = state.committed();
        if (!committed.isPruned() && !committed.ballot().isZero() && !committed.ballot().isAfter(upTo))
            committed = committed.pruned();
        Proposal accepted = state.accepted();
        if (accepted != null && !accepted.predecessor().isPruned() && !accepted.predecessor().ballot().isAfter(upTo)
                && !accepted.predecessor().ballot().isZero())
            accepted = accepted.withPredecessorPruned();
        if (committed == state.committed() && accepted == state.accepted()) return state;
        return new AcceptorState(state.promised(), accepted, committed, state.spanEndMicros(), state.recent());
    }

    private static Promise promise(AcceptorState state, Prepare prepare) {
        return new Promise(prepare.key(), prepare.ballot(), state.accepted(), state.committed(), state.recent(), null);
    }

    private static Rejected reject(AcceptorState state, ballot.paxos.PaxosKey key, Ballot ballot, Rejected.Phase phase,
            Rejected.Reason reason, long plainVersion) {
        return new Rejected(key, ballot, phase, reason, state.promised(), state.minMicros(), plainVersion);
    }
}

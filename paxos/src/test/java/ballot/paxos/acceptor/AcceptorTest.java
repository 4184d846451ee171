package ballot.paxos.acceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Committed;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Rejected;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The acceptor's transitions, rule by rule (docs/paxos.md §4.2, §4.5-§4.7, §5.6, §5.7). */
class AcceptorTest {
    private static final PaxosKey KEY = PaxosKey.of("k");
    private static final NodeId SELF = NodeId.of(1);
    private static final Bytes X = Bytes.utf8("x"), Y = Bytes.utf8("y");

    private static Ballot ballot(long micros) {
        return new Ballot(micros, 0, 7, 0);
    }

    private static Prepare prepare(long micros) {
        return new Prepare(KEY, ballot(micros), List.of(Bytes.utf8("q")));
    }

    private static Proposal proposal(long micros, Decree predecessor, Bytes... entries) {
        return new Proposal(ballot(micros), ballot(micros), List.of(entries), predecessor, null);
    }

    private static Propose propose(Proposal p) {
        return new Propose(KEY, p, null, null);
    }

    private static AcceptorState promisedAt(long micros) {
        return Acceptor.onPrepare(AcceptorState.EMPTY, prepare(micros)).next();
    }

    /** §4.2.4: a later ballot is promised, persisted before the reply, which reports the registers. */
    @Test
    void promisesLaterBallotAndPersistsFirst() {
        Step step = Acceptor.onPrepare(AcceptorState.EMPTY, prepare(100));
        assertThat(step.persist()).isTrue();
        assertThat(step.next().promised()).isEqualTo(ballot(100));
        assertThat(step.reply()).isInstanceOfSatisfying(Promise.class, p -> {
            assertThat(p.ballot()).isEqualTo(ballot(100));
            assertThat(p.accepted()).isNull();
            assertThat(p.committed()).isEqualTo(Decree.NONE);
            assertThat(p.read()).as("the shell attaches the read after persisting").isNull();
        });
    }

    /** §4.2.1: an earlier ballot is refused with the promise to beat. */
    @Test
    void rejectsPrepareWithEarlierBallot() {
        Step step = Acceptor.onPrepare(promisedAt(200), prepare(100));
        assertThat(step.persist()).isFalse();
        assertThat(step.reply()).isInstanceOfSatisfying(Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(Rejected.Reason.SUPERSEDED);
            assertThat(r.promised()).isEqualTo(ballot(200));
        });
    }

    /** §4.2.2, §4.11: a retransmitted prepare is promised again without a write. */
    @Test
    void repromisesSameBallotWithoutPersisting() {
        Step step = Acceptor.onPrepare(promisedAt(100), prepare(100));
        assertThat(step.persist()).isFalse();
        assertThat(step.reply()).isInstanceOf(Promise.class);
    }

    /** §4.2.3, §5.6: a ballot whose micros do not follow the last decree's timestamps is refused. */
    @Test
    void rejectsPrepareWhoseMicrosOverlapTheLastDecree() {
        AcceptorState accepted = Acceptor.onPropose(SELF, promisedAt(100), propose(proposal(100, Decree.NONE, X, Y)), 0).next();
        assertThat(accepted.spanEndMicros()).isEqualTo(101);
        Ballot sameMicrosLaterNode = new Ballot(101, 0, 9, 0);
        Step step = Acceptor.onPrepare(accepted, new Prepare(KEY, sameMicrosLaterNode, List.of()));
        assertThat(step.reply()).isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.minMicros()).isEqualTo(102));
    }

    /** §4.5.5: accepting applies the predecessor and records the proposal in one persisted step. */
    @Test
    void acceptsAndAppliesPredecessorInOneStep() {
        Decree previous = new Decree(ballot(50), ballot(50), List.of(X));
        Step step = Acceptor.onPropose(SELF, promisedAt(100), propose(proposal(100, previous, Y)), 0);
        assertThat(step.persist()).isTrue();
        assertThat(step.apply()).containsExactly(previous);
        assertThat(step.next().accepted().ballot()).isEqualTo(ballot(100));
        assertThat(step.next().committed()).isEqualTo(previous);
        assertThat(step.next().recent().containsOrigin(ballot(50))).isTrue();
        assertThat(step.reply()).isEqualTo(new Accepted(KEY, ballot(100), ballot(50), false));
    }

    /** §4.6: the electorate's sole replica decides by accepting: it applies and prunes the proposal in that write. */
    @Test
    void soleReplicaAppliesWhatItAcceptsInTheSameStep() {
        Decree previous = new Decree(ballot(50), ballot(50), List.of(X));
        Proposal p = proposal(100, previous, Y);
        Step step = Acceptor.onPropose(SELF, promisedAt(100), new Propose(KEY, p, ballot(150), null, Propose.Decides.SOLE), 0);
        assertThat(step.persist()).isTrue();
        assertThat(step.apply()).containsExactly(previous, p.toDecree());
        assertThat(step.next().accepted()).as("decided, so nothing is in flight").isNull();
        assertThat(step.next().committed().ballot()).isEqualTo(ballot(100));
        assertThat(step.next().committed().isPruned()).as("no other replica needs its entries").isTrue();
        assertThat(step.next().promised()).isEqualTo(ballot(150));
        assertThat(step.next().recent().containsOrigin(ballot(100))).isTrue();
        assertThat(step.reply()).isEqualTo(new Accepted(KEY, ballot(100), ballot(50), true, true));

        Step again = Acceptor.onPropose(SELF, step.next(), new Propose(KEY, p, ballot(150), null, Propose.Decides.SOLE), 0);
        assertThat(again.persist()).as("a retransmission").isFalse();
        assertThat(again.reply()).isInstanceOf(Accepted.class);
        Step next = Acceptor.onPropose(SELF, step.next(), new Propose(KEY, proposal(150, p.toDecree(), X), null, null, Propose.Decides.SOLE), 0);
        assertThat(next.apply()).as("the predecessor is not applied twice").containsExactly(proposal(150, p.toDecree(), X).toDecree());

        Step empty = Acceptor.onPropose(SELF, promisedAt(100), new Propose(KEY, proposal(100, Decree.NONE), null, null, Propose.Decides.SOLE), 0);
        assertThat(empty.apply()).isEmpty();
        assertThat(empty.next().committed()).as("empty decrees are never committed").isEqualTo(Decree.NONE);
    }

    /**
     * §4.6.1: a proposal whose acceptance completes a quorum is applied in the accepting write, and the reply says so;
     * unlike the sole replica's, it is not pruned (the other replicas may still need its entries).
     */
    @Test
    void acceptanceThatCompletesAQuorumAppliesTheProposal() {
        Decree previous = new Decree(ballot(50), ballot(50), List.of(X));
        Proposal p = proposal(100, previous, Y);
        Propose deciding = new Propose(KEY, p, ballot(150), null, Propose.Decides.ON_ACCEPT);
        Step step = Acceptor.onPropose(SELF, promisedAt(100), deciding, 0);
        assertThat(step.persist()).isTrue();
        assertThat(step.apply()).containsExactly(previous, p.toDecree());
        assertThat(step.next().accepted()).as("decided and applied: nothing is in flight").isNull();
        assertThat(step.next().committed()).isEqualTo(p.toDecree());
        assertThat(step.next().committed().isPruned()).as("other replicas may still need the entries").isFalse();
        assertThat(step.next().promised()).isEqualTo(ballot(150));
        assertThat(step.reply()).isEqualTo(new Accepted(KEY, ballot(100), ballot(50), true, true));

        Step again = Acceptor.onPropose(SELF, step.next(), deciding, 0);
        assertThat(again.persist()).as("a retransmission").isFalse();
        assertThat(again.reply()).as("still counts as applied").isEqualTo(new Accepted(KEY, ballot(100), ballot(50), false, true));

        Step refused = Acceptor.onPropose(SELF, promisedAt(200), deciding, 0);
        assertThat(refused.apply()).as("a refused proposal applies nothing, whatever it claims").isEmpty();
        assertThat(refused.reply()).isInstanceOf(Rejected.class);

        Step plain = Acceptor.onPropose(SELF, promisedAt(100), propose(p), 0);
        assertThat(plain.apply()).as("without the claim only the predecessor is applied").containsExactly(previous);
        assertThat(plain.next().accepted()).isEqualTo(p);
        assertThat(((Accepted) plain.reply()).applied()).isFalse();
    }

    /** §4.5.3: a proposal before the promise is refused and changes nothing. */
    @Test
    void rejectsProposalBeforePromise() {
        Step step = Acceptor.onPropose(SELF, promisedAt(200), propose(proposal(100, Decree.NONE, X)), 0);
        assertThat(step.persist()).isFalse();
        assertThat(step.reply()).isInstanceOf(Rejected.class);
    }

    /** §4.8: the next round's promise is given in the same write as the accept. */
    @Test
    void promisesNextBallotWithTheAccept() {
        Propose withNext = new Propose(KEY, proposal(100, Decree.NONE, X), ballot(150), null);
        Step step = Acceptor.onPropose(SELF, promisedAt(100), withNext, 0);
        assertThat(step.next().promised()).isEqualTo(ballot(150));
        assertThat(((Accepted) step.reply()).promisedNext()).isTrue();
        Step tooEarly = Acceptor.onPrepare(step.next(), prepare(120));
        assertThat(tooEarly.reply()).isInstanceOf(Rejected.class);
    }

    /** §4.8: a next ballot overlapping the proposal's timestamps is not promised. */
    @Test
    void doesNotPromiseNextBallotInsideTheProposalsTimestamps() {
        Propose withNext = new Propose(KEY, proposal(100, Decree.NONE, X, Y), new Ballot(101, 0, 1, 0), null);
        Step step = Acceptor.onPropose(SELF, promisedAt(100), withNext, 0);
        assertThat(((Accepted) step.reply()).promisedNext()).isFalse();
        assertThat(step.next().promised()).isEqualTo(ballot(100));
    }

    /** §5.7.1: a checked proposal is refused where the plain-write version changed since the cached read. */
    @Test
    void rejectsCheckedProposalWhenPlainVersionChanged() {
        Proposal checked = new Proposal(ballot(100), ballot(100), List.of(X), Decree.NONE, Map.of(SELF, 3L));
        assertThat(Acceptor.onPropose(SELF, promisedAt(100), propose(checked), 3).reply()).isInstanceOf(Accepted.class);
        assertThat(Acceptor.onPropose(SELF, promisedAt(100), propose(checked), 4).reply())
                .isInstanceOfSatisfying(Rejected.class, r -> {
                    assertThat(r.reason()).isEqualTo(Rejected.Reason.STALE);
                    assertThat(r.plainVersion()).isEqualTo(4);
                });
    }

    /** §5.7.1: a replica whose version is not in the cache refuses a checked proposal. */
    @Test
    void rejectsCheckedProposalForReplicaOutsideTheCache() {
        Proposal checked = new Proposal(ballot(100), ballot(100), List.of(X), Decree.NONE, Map.of(NodeId.of(2), 0L));
        assertThat(Acceptor.onPropose(SELF, promisedAt(100), propose(checked), 0).reply())
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.STALE));
    }

    /** §5.7.2: a replica holding the origin accepts its re-proposal even though its version moved on since. */
    @Test
    void acceptsReproposalOfHeldOriginDespiteVersionChange() {
        Proposal checked = new Proposal(ballot(100), ballot(100), List.of(X), Decree.NONE, Map.of(SELF, 3L));
        AcceptorState holding = Acceptor.onPropose(SELF, promisedAt(100), propose(checked), 3).next();
        AcceptorState promisedLater = Acceptor.onPrepare(holding, prepare(200)).next();
        Proposal replay = checked.reproposedWith(ballot(200), Decree.NONE);
        assertThat(Acceptor.onPropose(SELF, promisedLater, propose(replay), 9).reply()).isInstanceOf(Accepted.class);
    }

    /** §4.11: a retransmitted proposal is acknowledged again without a write, even after it was committed. */
    @Test
    void acknowledgesDuplicateProposalWithoutPersisting() {
        Proposal p = proposal(100, Decree.NONE, X);
        AcceptorState accepted = Acceptor.onPropose(SELF, promisedAt(100), propose(p), 0).next();
        Step again = Acceptor.onPropose(SELF, accepted, propose(p), 0);
        assertThat(again.persist()).isFalse();
        assertThat(again.reply()).isInstanceOf(Accepted.class);
        AcceptorState committed = Acceptor.onCommit(accepted, new Commit(KEY, p.toDecree())).next();
        Step afterCommit = Acceptor.onPropose(SELF, committed, propose(p), 0);
        assertThat(afterCommit.persist()).isFalse();
        assertThat(afterCommit.reply()).isInstanceOf(Accepted.class);
    }

    /** §4.6: a commit is applied unconditionally, advances the registers and clears the accepted proposal. */
    @Test
    void commitAppliesAndClearsTheAcceptedProposal() {
        Proposal p = proposal(100, Decree.NONE, X);
        AcceptorState accepted = Acceptor.onPropose(SELF, promisedAt(100), propose(p), 0).next();
        Step step = Acceptor.onCommit(accepted, new Commit(KEY, p.toDecree()));
        assertThat(step.persist()).isTrue();
        assertThat(step.apply()).containsExactly(p.toDecree());
        assertThat(step.next().accepted()).isNull();
        assertThat(step.next().committed()).isEqualTo(p.toDecree());
        assertThat(step.reply()).isEqualTo(new Committed(KEY, ballot(100)));
        Step duplicate = Acceptor.onCommit(step.next(), new Commit(KEY, p.toDecree()));
        assertThat(duplicate.persist()).isFalse();
    }

    /**
     * §4.15: votes are synced before the reply; a commit is synced only if it clears the replica's acceptance (lost,
     * that acceptance would be finished again after the others purge); prunes and purges are only written.
     */
    @Test
    void votesAndClearingCommitsAreSyncedAndTheRestOnlyWritten() {
        Proposal p = proposal(100, Decree.NONE, X);
        Step promise = Acceptor.onPrepare(AcceptorState.EMPTY, prepare(100));
        Step accept = Acceptor.onPropose(SELF, promise.next(), propose(p), 0);
        Step clearingCommit = Acceptor.onCommit(accept.next(), new Commit(KEY, p.toDecree()));
        Step learnerCommit = Acceptor.onCommit(promisedAt(90), new Commit(KEY, p.toDecree()));
        assertThat(List.of(promise, accept, clearingCommit)).allSatisfy(step -> assertThat(step.sync()).isTrue());
        assertThat(learnerCommit.persist()).isTrue();
        assertThat(learnerCommit.sync()).as("a commit at a replica that accepted nothing").isFalse();
        Step prune = Acceptor.onPrune(clearingCommit.next(), new Prune(KEY, ballot(100)));
        assertThat(prune.persist()).isTrue();
        assertThat(prune.sync()).isFalse();
        Step purge = Acceptor.onPurge(prune.next(), 500);
        assertThat(purge.persist()).isTrue();
        assertThat(purge.sync()).isFalse();
    }

    /** §4.6: an older decree is still applied (last write wins), without moving the registers back. */
    @Test
    void commitOfAnOlderDecreeIsAppliedWithoutMovingRegisters() {
        Decree newer = new Decree(ballot(200), ballot(200), List.of(Y));
        AcceptorState state = Acceptor.onCommit(AcceptorState.EMPTY, new Commit(KEY, newer)).next();
        Decree older = new Decree(ballot(100), ballot(100), List.of(X));
        Step step = Acceptor.onCommit(state, new Commit(KEY, older));
        assertThat(step.apply()).containsExactly(older);
        assertThat(step.next().committed()).isEqualTo(newer);
        assertThat(step.next().promised()).isEqualTo(ballot(200));
    }

    /** §4.7: pruning drops the entries of applied decrees and keeps their ballots. */
    @Test
    void pruneDropsEntriesOfAppliedDecrees() {
        Decree d = new Decree(ballot(100), ballot(100), List.of(X));
        AcceptorState applied = Acceptor.onCommit(promisedAt(90), new Commit(KEY, d)).next();
        AcceptorState accepted = Acceptor.onPropose(SELF, Acceptor.onPrepare(applied, prepare(150)).next(),
                propose(proposal(150, d, Y)), 0).next();
        Step step = Acceptor.onPrune(accepted, new Prune(KEY, ballot(100)));
        assertThat(step.persist()).isTrue();
        assertThat(step.reply()).isNull();
        assertThat(step.next().committed().isPruned()).isTrue();
        assertThat(step.next().committed().ballot()).isEqualTo(ballot(100));
        assertThat(step.next().accepted().predecessor().isPruned()).isTrue();
        assertThat(Acceptor.onPrune(step.next(), new Prune(KEY, ballot(100))).persist()).isFalse();
    }

    /**
     * §4.7, §4.14: a pruned predecessor this replica never applied (the partition moved away from it) cannot be
     * applied here: the proposal is refused, nothing is persisted, and the round counts on the replicas that have it.
     */
    @Test
    void prunedPredecessorNeverAppliedHereIsRefused() {
        Decree pruned = new Decree(ballot(50), ballot(50), null);
        Step step = Acceptor.onPropose(SELF, promisedAt(100), propose(proposal(100, pruned, X)), 0);
        assertThat(step.persist()).isFalse();
        assertThat(step.reply()).isInstanceOf(Rejected.class);
    }

    /** §4.13: registers with nothing uncommitted, a pruned decree and nothing after the floor are deleted. */
    @Test
    void purgeDeletesOldPrunedRegisters() {
        Decree d = new Decree(ballot(100), ballot(100), List.of(X));
        AcceptorState applied = Acceptor.onCommit(promisedAt(90), new Commit(KEY, d)).next();
        AcceptorState pruned = Acceptor.onPrune(applied, new Prune(KEY, ballot(100))).next();
        Step step = Acceptor.onPurge(pruned, 500);
        assertThat(step.persist()).isTrue();
        assertThat(step.next()).isEqualTo(AcceptorState.floor(500));
        assertThat(step.next().isFloor()).isTrue();
        assertThat(step.reply()).isNull();
        assertThat(Acceptor.onPurge(step.next(), 600).persist()).as("nothing left to delete").isFalse();
    }

    /**
     * §4.13: an accepted empty proposal keeps the registers even after a pruned decree. It may be the empty decree a
     * coordinator decided to settle an in-doubt proposal that another replica still holds (§4.10); without it a later
     * prepare could finish that proposal after its client was told it did not apply.
     */
    @Test
    void purgeKeepsRegistersWhoseLastProposalIsEmpty() {
        Decree d = new Decree(ballot(100), ballot(100), List.of(X));
        AcceptorState pruned = Acceptor.onPrune(Acceptor.onCommit(promisedAt(90), new Commit(KEY, d)).next(),
                new Prune(KEY, ballot(100))).next();
        AcceptorState settled = Acceptor.onPropose(SELF, Acceptor.onPrepare(pruned, prepare(200)).next(),
                propose(proposal(200, d)), 0).next();
        assertThat(settled.accepted()).as("the empty decree was accepted").isNotNull();
        assertThat(Acceptor.onPurge(pruned, 500).persist()).as("the same registers without it").isTrue();
        assertThat(Acceptor.onPurge(settled, 500).persist()).isFalse();
    }

    /**
     * §4.13: an uncommitted proposal, a committed decree not yet known applied everywhere (another replica may still
     * hold an older proposal that only this decree outranks), or a promise or decree after the floor keep the registers.
     */
    @Test
    void purgeKeepsRegistersSomethingMayNeed() {
        AcceptorState accepted = Acceptor.onPropose(SELF, promisedAt(100), propose(proposal(100, Decree.NONE, X)), 0).next();
        assertThat(Acceptor.onPurge(accepted, 500).persist()).as("uncommitted proposal").isFalse();
        Decree d = new Decree(ballot(100), ballot(100), List.of(X));
        assertThat(Acceptor.onPurge(Acceptor.onCommit(promisedAt(90), new Commit(KEY, d)).next(), 500).persist())
                .as("committed but not pruned").isFalse();
        assertThat(Acceptor.onPurge(promisedAt(600), 500).persist()).as("promise after the floor").isFalse();
        Decree late = new Decree(ballot(400), ballot(400), List.of(X, Y));
        AcceptorState applied = Acceptor.onPrune(Acceptor.onCommit(AcceptorState.EMPTY, new Commit(KEY, late)).next(),
                new Prune(KEY, ballot(400))).next();
        assertThat(Acceptor.onPurge(applied, 400).persist()).as("decree written after the floor").isFalse();
    }

    /**
     * §4.13: the floor state refuses every ballot at or before the floor, asks for a later one, and proves no
     * in-doubt proposal at or before it lost (it forgot what it applied there).
     */
    @Test
    void floorStateRefusesBallotsAtOrBeforeTheFloor() {
        Step step = Acceptor.onPrepare(AcceptorState.floor(500), prepare(450));
        assertThat(step.persist()).isFalse();
        assertThat(step.reply()).isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.minMicros()).isEqualTo(501));
        assertThat(Acceptor.onPropose(SELF, AcceptorState.floor(500), propose(proposal(500, Decree.NONE, X)), 0).reply())
                .isInstanceOf(Rejected.class);
        assertThat(Acceptor.onPrepare(AcceptorState.floor(500), prepare(501)).reply()).isInstanceOf(Promise.class);
        assertThat(AcceptorState.floor(500).recent().covers(ballot(500))).isFalse();
        assertThat(AcceptorState.floor(500).recent().covers(ballot(501))).isTrue();
    }

    /** §4.7, §4.13: a pruned predecessor older than the floor was applied here before the registers were purged. */
    @Test
    void prunedPredecessorBeforeTheFloorIsAcceptedOnPurgedRegisters() {
        Decree pruned = new Decree(ballot(50), ballot(50), null);
        AcceptorState purged = Acceptor.onPrepare(AcceptorState.floor(80), prepare(100)).next();
        Step step = Acceptor.onPropose(SELF, purged, propose(proposal(100, pruned, X)), 0);
        assertThat(step.reply()).isInstanceOf(Accepted.class);
        assertThat(step.apply()).isEmpty();
    }

    /** §2: the registers' invariant is checked where they are built. */
    @Test
    void registersRejectAcceptedAfterPromise() {
        Proposal p = proposal(100, Decree.NONE, X);
        assertThatThrownBy(() -> new AcceptorState(ballot(50), p, Decree.NONE, 100, ballot.paxos.RecentDecrees.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after promise");
    }
}

package ballot.txn.step;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Effect;
import ballot.txn.Marker;
import ballot.txn.Operation;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Reservation;
import ballot.txn.Transition;
import ballot.txn.TxnId;
import ballot.txn.step.Reply.Placement;
import ballot.txn.step.Reply.Placement.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The participant-side rules of docs/txn.md §3, one by one. */
class StepTest {
    private static final PartitionKey HOME = PartitionKey.of("transfers", "t");
    private static final PartitionKey A = PartitionKey.of("accounts", "a");
    private static final TxnId OLD = TxnId.of(0, 1);
    private static final TxnId YOUNG = TxnId.of(0, 2);
    private static final long DEADLINE = 1_000;
    private static final long RESERVATION = 100;
    private static final Operation<Long> DEBIT_10 = b -> b == null ? Effect.refuse("SOURCE_NOT_FOUND")
            : b < 10 ? Effect.refuse("INSUFFICIENT_FUNDS") : Effect.put(b - 10);

    private static Place<Long> place(TxnId id, int epoch, long age, Operation<Long> op, Decision... decisions) {
        return new Place<>(new Attempt(id, epoch), HOME, age, DEADLINE, op, List.of(decisions), RESERVATION);
    }

    @SuppressWarnings("unchecked")
    private static Placement<Long> placement(Transition<Long> t) {
        return (Placement<Long>) t.reply();
    }

    private static Record record(Transition<Long> t) {
        return ((Reply.RecordSeen) t.reply()).record();
    }

    @Test
    void placeLocksWithTheOperationsValueAndRepliesWhatItRead() { // §3.3 step 5
        Transition<Long> t = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), 10);
        assertThat(placement(t).outcome()).isEqualTo(Outcome.PLACED);
        assertThat(placement(t).seen()).isEqualTo(50L);
        assertThat(t.next().value()).as("the committed value is untouched until resolved").isEqualTo(50L);
        assertThat(t.next().intent().value()).isEqualTo(40L);
        Transition<Long> again = place(OLD, 0, 1, DEBIT_10).evaluate(t.next(), 20);
        assertThat(placement(again).outcome()).as("idempotent by attempt").isEqualTo(Outcome.PLACED);
        assertThat(again.changed()).isFalse();
    }

    @Test
    void refusalFencesTheAttemptWithItsReason() { // §3.3 step 5, §8 I2
        Transition<Long> t = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(5L), 10);
        assertThat(placement(t).outcome()).isEqualTo(Outcome.REFUSED);
        assertThat(placement(t).reason()).isEqualTo("INSUFFICIENT_FUNDS");
        PartitionState<Long> richer = t.next().withValue(500L);
        Placement<Long> late = placement(place(OLD, 0, 1, DEBIT_10).evaluate(richer, 20));
        assertThat(late.outcome()).as("a refused attempt never locks later, even if the condition now holds").isEqualTo(Outcome.FENCED);
        assertThat(late.reason()).isEqualTo("INSUFFICIENT_FUNDS");
    }

    @Test
    void olderWaitsForYoungerAndYoungerDiesBeforeOlder() { // §5 wait-die
        PartitionState<Long> youngHolds = place(YOUNG, 0, 200, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        Transition<Long> older = place(OLD, 0, 100, DEBIT_10).evaluate(youngHolds, 20);
        assertThat(placement(older).outcome()).isEqualTo(Outcome.WAIT);
        assertThat(placement(older).blocker().attempt().id()).isEqualTo(YOUNG);
        assertThat(older.next().intent()).as("waiting takes no lock").isEqualTo(youngHolds.intent());
        assertThat(older.next().reservation()).as("but reserves the partition (§5.1)").isEqualTo(new Reservation(OLD, 100, 20 + RESERVATION));

        PartitionState<Long> oldHolds = place(OLD, 0, 100, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        Transition<Long> younger = place(YOUNG, 0, 200, DEBIT_10).evaluate(oldHolds, 20);
        assertThat(placement(younger).outcome()).isEqualTo(Outcome.DIED);
        PartitionState<Long> released = new Resolve<Long>(new Decision(new Attempt(OLD, 0), false)).evaluate(younger.next(), 30).next();
        assertThat(placement(place(YOUNG, 0, 200, DEBIT_10).evaluate(released, 40)).outcome())
                .as("the dead attempt stays fenced after the blocker leaves").isEqualTo(Outcome.FENCED);
        assertThat(placement(place(YOUNG, 1, 200, DEBIT_10).evaluate(released, 40)).outcome())
                .as("its next epoch may lock").isEqualTo(Outcome.PLACED);
    }

    @Test
    void reservationGivesAFreedLockToTheOldestWaiterOnly() { // §5.1
        TxnId mid = TxnId.of(0, 3);
        TxnId oldest = TxnId.of(0, 4);
        PartitionState<Long> youngHolds = place(YOUNG, 0, 200, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        PartitionState<Long> reserved = place(OLD, 0, 100, DEBIT_10).evaluate(youngHolds, 20).next();
        Transition<Long> midWaits = place(mid, 0, 150, DEBIT_10).evaluate(reserved, 21);
        assertThat(placement(midWaits).outcome()).isEqualTo(Outcome.WAIT);
        assertThat(midWaits.next().reservation().id()).as("an older waiter keeps its claim").isEqualTo(OLD);
        PartitionState<Long> freed = new Resolve<Long>(new Decision(new Attempt(YOUNG, 0), true)).evaluate(reserved, 30).next();
        assertThat(freed.reservation().id()).isEqualTo(OLD);

        Transition<Long> younger = place(mid, 0, 150, DEBIT_10).evaluate(freed, 40);
        assertThat(placement(younger).outcome()).as("a younger placement dies at the free, reserved partition").isEqualTo(Outcome.DIED);
        assertThat(younger.next().intent()).isNull();
        assertThat(placement(place(mid, 0, 150, DEBIT_10).evaluate(younger.next(), 41)).outcome())
                .as("and is fenced there like any death").isEqualTo(Outcome.FENCED);
        Transition<Long> older = place(oldest, 0, 50, DEBIT_10).evaluate(freed, 40);
        assertThat(placement(older).outcome()).as("an older one is not held back").isEqualTo(Outcome.PLACED);
        assertThat(older.next().reservation().id()).isEqualTo(OLD);

        Transition<Long> waiter = place(OLD, 0, 100, DEBIT_10).evaluate(freed, 40);
        assertThat(placement(waiter).outcome()).isEqualTo(Outcome.PLACED);
        assertThat(placement(waiter).seen()).isEqualTo(40L);
        assertThat(waiter.next().reservation()).as("the claim ends when the waiter locks").isNull();
    }

    @Test
    void reservationIsRenewedByPollsAndLapsesWithoutThem() { // §5.1, §2
        PartitionState<Long> youngHolds = place(YOUNG, 0, 200, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        PartitionState<Long> reserved = place(OLD, 0, 100, DEBIT_10).evaluate(youngHolds, 20).next();
        assertThat(place(OLD, 0, 100, DEBIT_10).evaluate(reserved, 20 + RESERVATION / 2).changed())
                .as("a poll in the first half of the lease writes nothing").isFalse();
        Transition<Long> renewed = place(OLD, 0, 100, DEBIT_10).evaluate(reserved, 21 + RESERVATION / 2);
        assertThat(renewed.next().reservation().untilMicros()).isEqualTo(21 + RESERVATION / 2 + RESERVATION);

        long lapsed = 21 + RESERVATION;
        PartitionState<Long> freed = new Resolve<Long>(new Decision(new Attempt(YOUNG, 0), false)).evaluate(reserved, lapsed).next();
        assertThat(freed.reservation()).as("a writing step drops a lapsed reservation").isNull();
        TxnId other = TxnId.of(0, 9);
        PartitionState<Long> stale = reserved.withIntent(null);
        assertThat(placement(place(other, 0, 300, DEBIT_10).evaluate(stale, lapsed)).outcome())
                .as("a lapsed reservation holds nobody back").isEqualTo(Outcome.PLACED);
    }

    @Test
    void placementCarriesDecisionsAndResolvesTheBlockerInTheSameStep() { // §5, §6.1
        PartitionState<Long> youngHolds = place(YOUNG, 0, 200, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        Transition<Long> t = place(OLD, 0, 100, DEBIT_10, new Decision(new Attempt(YOUNG, 0), true)).evaluate(youngHolds, 20);
        assertThat(placement(t).outcome()).isEqualTo(Outcome.PLACED);
        assertThat(placement(t).seen()).as("read after rolling the blocker forward").isEqualTo(40L);
        assertThat(t.next().intent().value()).isEqualTo(30L);
    }

    @Test
    void placementPastTheDeadlineIsExpiredAndWritesNothing() { // §7
        Transition<Long> t = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), DEADLINE + 1);
        assertThat(placement(t).outcome()).isEqualTo(Outcome.EXPIRED);
        assertThat(t.changed()).isFalse();
    }

    @Test
    void laterEpochReplacesOwnEarlierIntentAndEarlierEpochIsSuperseded() { // §3.3 step 2
        PartitionState<Long> epoch0 = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        PartitionState<Long> epoch1 = place(OLD, 1, 1, DEBIT_10).evaluate(epoch0, 20).next();
        assertThat(epoch1.intent().attempt()).isEqualTo(new Attempt(OLD, 1));
        assertThat(placement(place(OLD, 0, 1, DEBIT_10).evaluate(epoch1, 30)).outcome()).isEqualTo(Outcome.SUPERSEDED);
    }

    @Test
    void resolvedCommitAppliesOnceAndItsMarkerRefusesTheSameAttempt() { // §3.6, §8 C2
        Attempt attempt = new Attempt(OLD, 0);
        PartitionState<Long> locked = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        Transition<Long> resolved = new Resolve<Long>(new Decision(attempt, true)).evaluate(locked, 20);
        assertThat(resolved.next().value()).isEqualTo(40L);
        assertThat(resolved.next().intent()).isNull();
        Transition<Long> duplicate = place(OLD, 0, 1, DEBIT_10).evaluate(resolved.next(), 30);
        assertThat(placement(duplicate).outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(duplicate.changed()).isFalse();
        assertThat(new Resolve<Long>(new Decision(attempt, true)).evaluate(resolved.next(), 40).changed()).isFalse();
        assertThat(new Fence<Long>(attempt, DEADLINE).evaluate(resolved.next(), 50).reply())
                .as("an applied intent counts as present").isEqualTo(new Reply.Presence(true));
    }

    @Test
    void fenceFindsAPresentIntentAndMakesAnAbsentOneImpossible() { // §3.4
        Attempt attempt = new Attempt(OLD, 0);
        PartitionState<Long> locked = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        assertThat(new Fence<Long>(attempt, DEADLINE).evaluate(locked, 20).reply()).isEqualTo(new Reply.Presence(true));
        Transition<Long> fenced = new Fence<Long>(attempt, DEADLINE).evaluate(PartitionState.of(50L), 20);
        assertThat(fenced.reply()).isEqualTo(new Reply.Presence(false));
        assertThat(placement(place(OLD, 0, 1, DEBIT_10).evaluate(fenced.next(), 30)).outcome()).isEqualTo(Outcome.FENCED);
        Transition<Long> late = new Fence<Long>(attempt, DEADLINE).evaluate(PartitionState.of(50L), DEADLINE + 1);
        assertThat(late.reply()).isEqualTo(new Reply.Presence(false));
        assertThat(late.changed()).as("time is the fence after the deadline").isFalse();
    }

    @Test
    void stageWritesStagingOnceAndNeverAfterTheDeadline() { // §3.1
        Record staging = Record.staging(OLD, 0, 1, DEADLINE, List.of(A));
        Transition<Long> t = new Stage<Long>(staging).evaluate(PartitionState.of(null), 10);
        assertThat(record(t)).isEqualTo(staging);
        Transition<Long> aborted = Finalize.<Long>abort(new Attempt(OLD, 0), null, DEADLINE, List.of(A)).evaluate(PartitionState.of(null), 10);
        assertThat(record(new Stage<Long>(staging).evaluate(aborted.next(), 20)).status())
                .as("an abort without a record refuses the stage in flight (§3.5)").isEqualTo(Record.Status.ABORTED);
        Transition<Long> late = new Stage<Long>(staging).evaluate(PartitionState.of(null), DEADLINE + 1);
        assertThat(record(late)).isNull();
        assertThat(late.changed()).isFalse();
    }

    @Test
    void finalizeDecidesOnlyItsStagingEpochAndFirstFinalizerWins() { // §3.5, §8 I1
        PartitionState<Long> staged = PartitionState.<Long>of(null).withRecord(Record.staging(OLD, 0, 1, DEADLINE, List.of(A)));
        Transition<Long> refused = Finalize.<Long>abort(new Attempt(OLD, 0), "INSUFFICIENT_FUNDS", DEADLINE, List.of(A)).evaluate(staged, 10);
        assertThat(record(refused).isFinal()).isTrue();
        Transition<Long> late = Finalize.<Long>commit(new Attempt(OLD, 0)).evaluate(refused.next(), 20);
        assertThat(record(late).status()).isEqualTo(Record.Status.ABORTED);
        assertThat(late.changed()).isFalse();
        assertThat(record(Finalize.<Long>commit(new Attempt(OLD, 0)).evaluate(PartitionState.of(null), 10)))
                .as("nothing commits without a staging record").isNull();
    }

    /** §3.5: the home's own intent is resolved in the finalizing transition, after the record, and only by its decision. */
    @Test
    void finalizeResolvesTheHomesOwnIntentOfTheDecidedAttempt() {
        Attempt attempt = new Attempt(OLD, 0);
        PartitionState<Long> placed = place(OLD, 0, 1, DEBIT_10).evaluate(
                PartitionState.<Long>of(100L).withRecord(Record.staging(OLD, 0, 1, DEADLINE, List.of(HOME, A))), 5).next();
        assertThat(placed.intent()).isNotNull();
        Transition<Long> committed = Finalize.<Long>commit(attempt).evaluate(placed, 10);
        assertThat(record(committed).status()).isEqualTo(Record.Status.COMMITTED);
        assertThat(committed.next().intent()).isNull();
        assertThat(committed.next().value()).as("rolled forward").isEqualTo(90L);
        Transition<Long> aborted = Finalize.<Long>abort(attempt, null, DEADLINE, List.of(HOME, A)).evaluate(placed, 10);
        assertThat(aborted.next().intent()).isNull();
        assertThat(aborted.next().value()).as("rolled back").isEqualTo(100L);
        PartitionState<Long> otherIntent = place(YOUNG, 0, 2, DEBIT_10).evaluate(
                PartitionState.<Long>of(100L).withRecord(Record.staging(OLD, 0, 1, DEADLINE, List.of(A))), 5).next();
        assertThat(Finalize.<Long>commit(attempt).evaluate(otherIntent, 10).next().intent())
                .as("another transaction's intent stays").isEqualTo(otherIntent.intent());
    }

    /** §3.6, §8 C2: a resolution's marker refuses a late placement of its attempt until the deadline, time after it. */
    @Test
    void aResolutionLeavesAMarkerUntilTheAttemptsDeadline() {
        Attempt attempt = new Attempt(OLD, 0);
        PartitionState<Long> placed = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(100L), 5).next();
        PartitionState<Long> resolved = new Resolve<Long>(new Decision(attempt, true)).evaluate(placed, 10).next();
        assertThat(resolved.value()).isEqualTo(90L);
        assertThat(resolved.markers().get(OLD).deadlineMicros()).isEqualTo(DEADLINE);
        Transition<Long> late = place(OLD, 0, 1, DEBIT_10).evaluate(resolved, 20);
        assertThat(late.changed()).as("a late placement of the applied attempt locks nothing").isFalse();
        assertThat(new Fence<Long>(attempt, DEADLINE).evaluate(resolved, 20).reply()).isEqualTo(new Reply.Presence(true));
        long afterDeadline = DEADLINE + 1_000;
        PartitionState<Long> later = new Stage<Long>(Record.staging(YOUNG, 0, 2, afterDeadline + 5, List.of(A))).evaluate(resolved, afterDeadline).next();
        assertThat(later.markers()).as("dropped by the next write after the deadline").doesNotContainKey(OLD);
        assertThat(place(OLD, 0, 1, DEBIT_10).evaluate(later, afterDeadline).changed()).as("time refuses it now").isFalse();
    }

    @Test
    void restartMovesOnlyFromTheDeadEpochAndNeverShortensTheDeadline() { // §3.2
        PartitionState<Long> staged = PartitionState.<Long>of(null).withRecord(Record.staging(OLD, 0, 1, DEADLINE, List.of(A)));
        Record next = record(new Restart<Long>(OLD, 0, 1, DEADLINE - 500, List.of(A)).evaluate(staged, 10));
        assertThat(next.epoch()).isEqualTo(1);
        assertThat(next.deadlineMicros()).isEqualTo(DEADLINE);
        PartitionState<Long> committed = Finalize.<Long>commit(new Attempt(OLD, 0)).evaluate(staged, 10).next();
        Transition<Long> t = new Restart<Long>(OLD, 0, 1, DEADLINE, List.of(A)).evaluate(committed, 20);
        assertThat(record(t).status()).isEqualTo(Record.Status.COMMITTED);
        assertThat(t.changed()).isFalse();
    }

    @Test
    void onePhaseWritesValueAndFinalRecordTogetherAndRetriesFindTheRecord() { // §3.8
        OnePhase<Long> step = new OnePhase<>(new Attempt(OLD, 0), 1, DEADLINE, DEBIT_10, List.of(), List.of(A), RESERVATION);
        Transition<Long> t = step.evaluate(PartitionState.of(50L), 10);
        assertThat(placement(t).outcome()).isEqualTo(Outcome.DECIDED);
        assertThat(placement(t).record().status()).isEqualTo(Record.Status.COMMITTED);
        assertThat(t.next().value()).isEqualTo(40L);
        Transition<Long> retry = step.evaluate(t.next(), 20);
        assertThat(retry.reply()).isInstanceOf(Reply.RecordSeen.class);
        assertThat(retry.changed()).isFalse();
        PartitionState<Long> locked = place(YOUNG, 0, 200, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        Transition<Long> older = new OnePhase<Long>(new Attempt(OLD, 0), 1, DEADLINE, DEBIT_10, List.of(), List.of(A), RESERVATION).evaluate(locked, 20);
        assertThat(placement(older).outcome()).as("1PC holds nothing, so it waits rather than dies").isEqualTo(Outcome.WAIT);
        assertThat(older.next().reservation().id()).as("and reserves like a waiting placement").isEqualTo(OLD);
    }

    @Test
    void onePhaseIgnoresAnotherWaitersReservation() { // §3.8, §5.1
        PartitionState<Long> reservedForOld = PartitionState.of(50L).withReservation(new Reservation(OLD, 1, 500));
        OnePhase<Long> younger = new OnePhase<>(new Attempt(YOUNG, 0), 200, DEADLINE, DEBIT_10, List.of(), List.of(A), RESERVATION);
        Transition<Long> t = younger.evaluate(reservedForOld, 10);
        assertThat(placement(t).outcome()).as("it takes no lock, so it cannot make the waiter wait").isEqualTo(Outcome.DECIDED);
        assertThat(t.next().value()).isEqualTo(40L);
        assertThat(t.next().reservation().id()).isEqualTo(OLD);
    }

    @Test
    void markersExpireWithTheNextWritingStepOnly() { // §2
        PartitionState<Long> fenced = new Fence<Long>(new Attempt(OLD, 0), DEADLINE).evaluate(PartitionState.of(50L), 10).next();
        assertThat(fenced.markers()).containsKey(OLD);
        Transition<Long> read = new ReadRecord<Long>(OLD).evaluate(fenced, DEADLINE + 5);
        assertThat(read.changed()).isFalse();
        assertThat(read.next().markers()).containsKey(OLD);
        Transition<Long> write = new Fence<Long>(new Attempt(YOUNG, 0), 2 * DEADLINE).evaluate(fenced, DEADLINE + 5);
        assertThat(write.next().markers()).containsOnlyKeys(YOUNG);
        assertThat(write.next().markers().get(YOUNG).kind()).isEqualTo(Marker.Kind.FENCED);
    }

    @Test
    void abortWithoutARecordKeepsTheAttemptsDeadlineAndParticipants() { // §3.5, §2
        Record aborted = record(Finalize.<Long>abort(new Attempt(OLD, 0), null, DEADLINE, List.of(A, HOME)).evaluate(PartitionState.of(null), 10));
        assertThat(aborted.deadlineMicros()).as("the retention window counts from it").isEqualTo(DEADLINE);
        assertThat(aborted.participants()).containsExactly(A, HOME);
    }

    @Test
    void participantIsClearOnlyWithoutAnIntentAndPastTheDeadline() { // §2 retention, condition 3
        PartitionState<Long> locked = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), 10).next();
        assertThat(new Forget<Long>(OLD, DEADLINE).evaluate(locked, DEADLINE + 1).reply())
                .as("an intent still needs the record").isEqualTo(new Reply.Cleared(false));
        PartitionState<Long> applied = new Resolve<Long>(new Decision(new Attempt(OLD, 0), true)).evaluate(locked, 20).next();
        Transition<Long> early = new Forget<Long>(OLD, DEADLINE).evaluate(applied, DEADLINE);
        assertThat(early.reply()).as("an attempt could still be placed").isEqualTo(new Reply.Cleared(false));
        assertThat(early.changed()).isFalse();
        Transition<Long> clear = new Forget<Long>(OLD, DEADLINE).evaluate(applied, DEADLINE + 1);
        assertThat(clear.reply()).isEqualTo(new Reply.Cleared(true));
        assertThat(clear.next().markers()).as("its marker goes with it").doesNotContainKey(OLD);
        assertThat(placement(place(OLD, 0, 1, DEBIT_10).evaluate(clear.next(), DEADLINE + 2)).outcome())
                .as("and time refuses the attempt for good").isEqualTo(Outcome.EXPIRED);
    }

    @Test
    void dropRecordRemovesOnlyADecidedRecordPastItsRetention() { // §2 retention, conditions 1 and 2
        long retention = 500;
        PartitionState<Long> staged = PartitionState.<Long>of(null).withRecord(Record.staging(OLD, 0, 1, DEADLINE, List.of(A)));
        assertThat(new DropRecord<Long>(OLD, retention).evaluate(staged, DEADLINE + retention + 1).changed())
                .as("a staging record stays").isFalse();
        PartitionState<Long> committed = Finalize.<Long>commit(new Attempt(OLD, 0)).evaluate(staged, 10).next();
        assertThat(new DropRecord<Long>(OLD, retention).evaluate(committed, DEADLINE + retention).changed())
                .as("kept for client retries during the window").isFalse();
        Transition<Long> dropped = new DropRecord<Long>(OLD, retention).evaluate(committed, DEADLINE + retention + 1);
        assertThat(record(dropped)).isNull();
        assertThat(dropped.next().records()).isEmpty();
        Inspect<Long> inspect = new Inspect<>(retention);
        @SuppressWarnings("unchecked")
        Reply.Inspection<Long> seen = (Reply.Inspection<Long>) inspect.evaluate(committed, DEADLINE + retention + 1).reply();
        assertThat(seen.retired()).as("the sweep finds it").extracting(Record::id).containsExactly(OLD);
    }

    @Test
    void dropRecordChecksTheHomeItselfAndForgetsIt() { // §3.9: the home's Forget and the drop in one CAS
        long retention = 500;
        PartitionState<Long> homeLocked = place(OLD, 0, 1, DEBIT_10).evaluate(PartitionState.of(50L), 10).next()
                .withRecord(Finalize.<Long>commit(new Attempt(OLD, 0)).evaluate(
                        PartitionState.<Long>of(null).withRecord(Record.staging(OLD, 0, 1, DEADLINE, List.of(A, HOME))), 10).next().record(OLD));
        assertThat(new DropRecord<Long>(OLD, retention).evaluate(homeLocked, DEADLINE + retention + 1).changed())
                .as("an intent of the transaction at the home still needs the record").isFalse();
        PartitionState<Long> homeApplied = new Resolve<Long>(new Decision(new Attempt(OLD, 0), true)).evaluate(homeLocked, 20).next();
        assertThat(homeApplied.markers()).containsKey(OLD);
        Transition<Long> dropped = new DropRecord<Long>(OLD, retention).evaluate(homeApplied, DEADLINE + retention + 1);
        assertThat(record(dropped)).isNull();
        assertThat(dropped.next().markers()).as("the home's marker goes with the record").doesNotContainKey(OLD);
        assertThat(dropped.next().value()).isEqualTo(40L);
    }

    @Test
    void recordDecidesEpochsItHasLeftAndNotTheOneStaging() { // §6.1
        Record staging1 = Record.staging(OLD, 1, 1, DEADLINE, List.of(A));
        assertThat(staging1.decide(0)).contains(new Decision(new Attempt(OLD, 0), false));
        assertThat(staging1.decide(1)).isEmpty();
        assertThat(staging1.finish(true, null).decide(1)).contains(new Decision(new Attempt(OLD, 1), true));
    }
}

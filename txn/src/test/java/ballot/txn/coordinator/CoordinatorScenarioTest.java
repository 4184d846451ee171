package ballot.txn.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.txn.Attempt;
import ballot.txn.Intent;
import ballot.txn.Operation;
import ballot.txn.Participant;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transaction;
import ballot.txn.TxnId;
import ballot.txn.TxnResult;
import ballot.txn.spi.Clock;
import ballot.txn.step.DropRecord;
import ballot.txn.step.Finalize;
import ballot.txn.step.Forget;
import ballot.txn.step.Inspect;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Resolve;
import ballot.txn.step.Restart;
import ballot.txn.step.Stage;
import ballot.txn.transfer.Transfer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Scripted runs of one coordinator over a CAS the test drives step by step (docs/txn.md §4). */
class CoordinatorScenarioTest {
    private static final PartitionKey HOME = PartitionKey.of("transfers", "t1");
    private static final PartitionKey SRC = PartitionKey.of("accounts", "src");
    private static final PartitionKey DST = PartitionKey.of("accounts", "dst");
    private static final TxnId ID = TxnId.of(7, 7);
    private static final long DEADLINE = 1_000;
    /** The sweep's age for decided records with the builder's default retention and background period, plus one. */
    private static final long SWEPT_AFTER_MICROS = TxnCoordinator.sweptAfter(Duration.ofHours(1), Duration.ofSeconds(30)).toNanos() / 1000 + 1;

    private final ManualCas cas = new ManualCas();
    private long nanos;
    private final List<TxnResult<Long>> answers = new ArrayList<>();
    private final TxnCoordinator<Long> coordinator = TxnCoordinator.builder(cas)
            .clock(new Clock() {
                @Override
                public long nanoTime() {
                    return nanos;
                }

                @Override
                public long wallMicros() {
                    return cas.nowMicros;
                }
            })
            .random(bound -> 0)
            .build();

    private Transaction<Long> transfer(long amount) {
        return new Transfer(ID, SRC, DST, amount).transaction(0, DEADLINE, HOME);
    }

    private void accounts(long src, long dst) {
        cas.states.put(SRC, PartitionState.of(src));
        cas.states.put(DST, PartitionState.of(dst));
    }

    @Test
    void quietOnlyWithNoTransactionTrackedAndNoTimerSet() {
        accounts(100, 5);
        assertThat(coordinator.quiet()).isTrue();
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        assertThat(coordinator.quiet()).as("a transaction awaits its answer").isFalse();
        cas.landAll();
        coordinator.tick();
        assertThat(coordinator.quiet()).as("answered and settled; the retirement waits for a tick within the second").isTrue();
        passTheRetentionWindow();
        assertThat(cas.state(HOME).records()).as("retired").isEmpty();
        coordinator.submit(new Transfer(TxnId.of(8, 8), SRC, DST, 1).transaction(0, cas.nowMicros + DEADLINE, HOME), 1_000_000_000L, answers::add);
        for (int i = 0; i < 3; i++) cas.land(s -> true);
        assertThat(answers).hasSize(2);
        cas.pending.remove(0).reply().accept(new ballot.txn.step.Reply.Unknown()); // the Finalize
        coordinator.tick();
        assertThat(coordinator.quiet()).as("answered, but a lost background step waits on its retry timer").isFalse();
        nanos += Duration.ofSeconds(1).toNanos();
        coordinator.tick();
        cas.landAll();
        coordinator.tick();
        passTheRetentionWindow();
        assertThat(coordinator.quiet()).isTrue();
    }

    /** Moves both clocks past the default retention window, ticks, and lands what that sends. */
    private void passTheRetentionWindow() {
        cas.nowMicros += Duration.ofHours(1).toNanos() / 1000 + DEADLINE;
        tickAfter(Duration.ofHours(1).toNanos() + Duration.ofSeconds(1).toNanos());
        cas.landAll();
        coordinator.tick();
    }

    @Test
    void uncontendedTransferIsAnsweredAfterOneRoundOfParallelSteps() { // §4.2
        accounts(100, 5);
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        assertThat(cas.pending).as("record and both intents at once").hasSize(3);
        for (int i = 0; i < 3; i++) cas.land(s -> true);
        assertThat(answers).containsExactly(TxnResult.committed(Map.of(SRC, 100L, DST, 5L)));
        assertThat(cas.pending).as("then the record is finalized (§4.3)").singleElement().matches(ManualCas.step(Finalize.class, HOME));
        cas.land(s -> true);
        assertThat(cas.pending).as("and once it is final, both intents are rolled forward at once")
                .extracting(s -> s.step().getClass().getSimpleName()).containsExactly("Resolve", "Resolve");
        cas.landAll();
        assertThat(cas.state(SRC).value()).as("intents resolved after the answer").isEqualTo(70L);
        assertThat(cas.state(DST).value()).isEqualTo(35L);
        assertThat(cas.state(SRC).intent()).isNull();
        assertThat(cas.state(HOME).record(ID).status()).isEqualTo(Record.Status.COMMITTED);
    }

    /**
     * §2, §6.3: the coordinator that saw every participant resolve a commit drops its record when the retention window
     * ends, with no Forget: the resolutions already proved the participants clear.
     */
    @Test
    void aSettledCommitsRecordIsDroppedByItsCoordinatorWithoutForgets() {
        accounts(100, 5);
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        cas.landAll();
        assertThat(cas.state(HOME).record(ID).status()).isEqualTo(Record.Status.COMMITTED);
        tickAfter(Duration.ofMinutes(30).toNanos());
        assertThat(cas.pending).as("nothing before the window ends").isEmpty();
        cas.nowMicros = DEADLINE + Duration.ofHours(1).toNanos() / 1000;
        tickAfter(Duration.ofMinutes(31).toNanos());
        assertThat(cas.pending).as("the drop alone").singleElement().matches(ManualCas.step(DropRecord.class, HOME));
        cas.landAll();
        assertThat(cas.state(HOME).records()).isEmpty();
        assertThat(cas.state(SRC).value()).isEqualTo(70L);
        assertThat(coordinator.quiet()).isTrue();
    }

    /** §6.3: a decided record is the coordinator's to retire for a background period after the window, then the sweep's. */
    @Test
    void theSweepLeavesADecidedRecordToItsCoordinatorForABackgroundPeriod() {
        cas.states.put(HOME, PartitionState.<Long>of(null)
                .withRecord(Record.staging(ID, 0, 0, DEADLINE, List.of(SRC, DST)).finish(true, null)));
        accounts(70, 35);
        cas.nowMicros = DEADLINE + Duration.ofHours(1).toNanos() / 1000 + 1; // the default retention has passed
        coordinator.sweep(HOME, clean -> { });
        cas.land(ManualCas.step(Inspect.class, HOME));
        assertThat(cas.pending).as("nothing yet").isEmpty();
        cas.nowMicros = DEADLINE + SWEPT_AFTER_MICROS;
        coordinator.sweep(HOME, clean -> { });
        cas.land(ManualCas.step(Inspect.class, HOME));
        assertThat(cas.pending).as("both participants asked").extracting(s -> s.step().getClass().getSimpleName())
                .containsExactly("Forget", "Forget");
    }

    /** A home whose partition time is behind the coordinator's clock keeps the record at first: the drop is tried again. */
    @Test
    void aDropThatCameTooEarlyForTheHomesTimeIsTriedAgain() {
        accounts(100, 5);
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        cas.landAll();
        long windowEnd = DEADLINE + Duration.ofHours(1).toNanos() / 1000;
        cas.nowMicros = windowEnd + 1; // the coordinator's clock
        tickAfter(Duration.ofHours(1).toNanos() + Duration.ofSeconds(1).toNanos());
        cas.nowMicros = windowEnd - 100; // the home's partition time when the drop lands
        cas.land(ManualCas.step(DropRecord.class, HOME));
        assertThat(cas.state(HOME).record(ID)).as("not past the window there yet").isNotNull();
        cas.nowMicros = windowEnd + 10;
        tickAfter(Duration.ofSeconds(2).toNanos());
        cas.land(ManualCas.step(DropRecord.class, HOME));
        assertThat(cas.state(HOME).records()).isEmpty();
    }

    /** A commit whose resolution was never confirmed is not retired by its coordinator: the sweep's Forget decides. */
    @Test
    void aCommitWithAnUnconfirmedResolutionLeavesItsRecordToTheSweep() {
        accounts(100, 5);
        coordinator.submit(transfer(30), Duration.ofSeconds(1).toNanos(), answers::add);
        for (int i = 0; i < 4; i++) cas.land(s -> true); // the round and the Finalize
        cas.land(ManualCas.step(Resolve.class, SRC));
        for (int i = 0; i < 40; i++) { // the destination's resolution is lost until the background period ends
            cas.pending.removeIf(s -> {
                if (s.step() instanceof Resolve) s.reply().accept(new ballot.txn.step.Reply.Unknown());
                return s.step() instanceof Resolve;
            });
            tickAfter(Duration.ofSeconds(1).toNanos());
        }
        assertThat(cas.state(DST).intent()).as("still locked").isNotNull();
        cas.nowMicros = DEADLINE + Duration.ofHours(2).toNanos() / 1000;
        tickAfter(Duration.ofHours(2).toNanos());
        assertThat(cas.pending).as("no drop without the resolution").isEmpty();
        assertThat(cas.state(HOME).record(ID)).isNotNull();
    }

    @Test
    void refusalIsAnsweredFromTheFinalRecordAndReleasesTheOtherIntent() { // §4.4
        accounts(10, 5);
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        cas.landAll();
        assertThat(answers).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(TxnResult.Outcome.ABORTED);
            assertThat(a.reason()).isEqualTo("INSUFFICIENT_FUNDS");
            assertThat(a.reads()).as("the value the refused operation read").containsEntry(SRC, 10L);
        });
        assertThat(cas.state(DST).intent()).isNull();
        assertThat(cas.state(DST).value()).isEqualTo(5L);
        assertThat(cas.state(HOME).record(ID).reason()).isEqualTo("INSUFFICIENT_FUNDS");
    }

    @Test
    void singlePartitionTransactionIsOneStep() { // §3.8
        cas.states.put(SRC, PartitionState.of(100L));
        Transaction<Long> read = new Transaction<>(ID, 0, DEADLINE, SRC, List.of(new Participant<>(SRC, Operation.read())));
        coordinator.submit(read, 1_000_000_000L, answers::add);
        assertThat(cas.pending).singleElement().satisfies(s -> assertThat(s.step()).isInstanceOf(OnePhase.class));
        cas.landAll();
        assertThat(answers).containsExactly(TxnResult.committed(Map.of(SRC, 100L)));
        assertThat(cas.pending).isEmpty();
    }

    /**
     * Regression: a retry coordinator joins a committed epoch whose source intent was already rolled forward and whose
     * marker was collected, so its placement there answers EXPIRED. That does not prove the epoch dead: the record
     * decides (§8 I3), and the destination's intent is rolled forward, never back.
     */
    @Test
    void expiryOfAnAlreadyAppliedIntentNeverRollsBackTheCommittedEpoch() {
        committedWithTheDestinationLeftLocked();
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        cas.land(ManualCas.step(Place.class, DST));
        cas.nowMicros = DEADLINE + 1;
        cas.land(ManualCas.step(Place.class, SRC));
        assertThat(cas.pending).anySatisfy(s -> assertThat(s.step()).isInstanceOf(Restart.class));
        cas.landAll();
        assertThat(answers).containsExactly(TxnResult.committed(Map.of()));
        assertThat(cas.state(DST).value()).isEqualTo(35L);
        assertThat(cas.state(SRC).value()).isEqualTo(70L);
    }

    @Test
    void coordinatorThatTimesOutRecoversItsOwnTransactionWithoutWaitingForTheDeadline() { // §4.8, §6.2
        accounts(100, 5);
        // A younger transaction holds the destination, and its coordinator is gone: this one waits there.
        Attempt younger = new Attempt(TxnId.of(9, 9), 0);
        cas.states.put(DST, PartitionState.of(5L).withIntent(new Intent<>(younger, PartitionKey.of("transfers", "young"), 1, DEADLINE, 6L)));
        coordinator.submit(transfer(30), 1_000, answers::add);
        cas.land(ManualCas.step(Stage.class, HOME));
        cas.land(ManualCas.step(Place.class, SRC));
        cas.land(ManualCas.step(Place.class, DST));
        nanos = 2_000;
        coordinator.tick();
        assertThat(answers).containsExactly(TxnResult.unknown());
        cas.landAll();
        assertThat(cas.nowMicros).as("recovered before its deadline").isLessThan(DEADLINE);
        assertThat(cas.state(SRC).intent()).as("its lock is released").isNull();
        assertThat(cas.state(SRC).value()).isEqualTo(100L);
        assertThat(cas.state(HOME).record(ID).retryable()).as("a retry with the same id may still run it").isTrue();
        assertThat(cas.state(DST).intent().attempt()).as("the other transaction's intent is not its business").isEqualTo(younger);
    }

    /**
     * A death proves the epoch dead (§4.5, §8 C0): its intents are released at once, and the restart waits, holding
     * nothing, until the older transaction it died against is decided; the next epoch carries that decision (§5.2).
     */
    @Test
    void deadEpochIsReleasedAtOnceAndRestartsOnlyOnceItsKillerIsDecided() {
        accounts(100, 5);
        Attempt older = new Attempt(TxnId.of(1, 1), 0);
        PartitionKey olderHome = PartitionKey.of("transfers", "old");
        cas.states.put(olderHome, PartitionState.<Long>of(null).withRecord(Record.staging(older.id(), 0, -1, DEADLINE, List.of(DST))));
        cas.states.put(DST, PartitionState.of(5L).withIntent(new Intent<>(older, olderHome, -1, DEADLINE, 6L)));
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        cas.land(ManualCas.step(Stage.class, HOME));
        cas.land(ManualCas.step(Place.class, SRC));
        cas.land(ManualCas.step(Place.class, DST));
        assertThat(cas.pending).as("no restart yet").noneSatisfy(s -> assertThat(s.step()).isInstanceOf(Restart.class));
        cas.land(ManualCas.step(Resolve.class, SRC));
        assertThat(cas.state(SRC).intent()).as("released before the record moves").isNull();

        cas.land(ManualCas.step(ReadRecord.class, olderHome));
        tickAfter(10_000_000L);
        cas.land(ManualCas.step(ReadRecord.class, olderHome));
        assertThat(cas.pending).as("the killer is live: still no restart").noneSatisfy(s -> assertThat(s.step()).isInstanceOf(Restart.class));
        cas.states.put(olderHome, cas.state(olderHome).withRecord(cas.state(olderHome).record(older.id()).finish(false, null)));
        tickAfter(10_000_000L);
        cas.land(ManualCas.step(ReadRecord.class, olderHome));
        cas.land(ManualCas.step(Restart.class, HOME));
        assertThat(cas.state(HOME).record(ID).epoch()).isEqualTo(1);
        assertThat(cas.state(HOME).record(ID).deadlineMicros()).as("the next epoch's lifetime starts after the wait")
                .isGreaterThan(DEADLINE);
        cas.landAll();
        assertThat(answers).containsExactly(TxnResult.committed(Map.of(SRC, 100L, DST, 5L)));
        assertThat(cas.state(DST).value()).as("the next epoch rolled the aborted blocker back and locked").isEqualTo(35L);
    }

    /** A placement that lands after its epoch was released is released when its reply comes (§4.5). */
    @Test
    void placementLandingAfterItsEpochWasReleasedIsReleasedToo() {
        accounts(100, 5);
        Attempt older = new Attempt(TxnId.of(1, 1), 0);
        cas.states.put(DST, PartitionState.of(5L).withIntent(new Intent<>(older, PartitionKey.of("transfers", "old"), -1, DEADLINE, 6L)));
        coordinator.submit(transfer(30), 1_000_000_000L, answers::add);
        cas.land(ManualCas.step(Place.class, DST));
        cas.land(ManualCas.step(Resolve.class, SRC));
        cas.land(ManualCas.step(Place.class, SRC));
        assertThat(cas.state(SRC).intent()).as("the late placement locked").isNotNull();
        cas.land(ManualCas.step(Resolve.class, SRC));
        assertThat(cas.state(SRC).intent()).as("and its reply released it").isNull();
        assertThat(cas.state(SRC).value()).isEqualTo(100L);
    }

    /** The coordinator that gives up on an attempt its record already decided still releases its intents (§4.8). */
    @Test
    void timeoutAfterTheRecordMovedOnReleasesTheDeadEpoch() {
        accounts(100, 5);
        Attempt older = new Attempt(TxnId.of(1, 1), 0);
        cas.states.put(DST, PartitionState.of(5L).withIntent(new Intent<>(older, PartitionKey.of("transfers", "old"), -1, DEADLINE, 6L)));
        coordinator.submit(transfer(30), 1_000, answers::add);
        cas.land(ManualCas.step(Stage.class, HOME));
        cas.land(ManualCas.step(Place.class, SRC));
        cas.land(ManualCas.step(Place.class, DST)); // DIED: a Resolve of SRC is sent; it is lost below
        cas.pending.removeIf(s -> s.step() instanceof Resolve);
        cas.states.put(HOME, cas.state(HOME).withRecord(Record.staging(ID, 1, 0, DEADLINE, List.of(SRC, DST))));
        tickAfter(2_000);
        assertThat(answers).containsExactly(TxnResult.unknown());
        cas.landAll();
        assertThat(cas.state(SRC).intent()).as("epoch 0 is released on the record's word").isNull();
        assertThat(cas.state(SRC).value()).isEqualTo(100L);
    }

    /** Retention (§2): a decided record goes once its window has passed and no intent can refer to it. */
    @Test
    void sweepDropsADecidedRecordOnlyOnceNoIntentCanReferToIt() {
        committedWithTheDestinationLeftLocked(); // its finisher crashed before resolving the destination
        cas.nowMicros = DEADLINE + SWEPT_AFTER_MICROS; // the default retention and background period have passed
        coordinator.sweep(HOME, clean -> { });
        cas.landAll();
        assertThat(cas.state(HOME).record(ID)).as("the intent left at the destination still needs the record").isNotNull();
        coordinator.sweep(DST, clean -> { });
        cas.landAll();
        assertThat(cas.state(DST).value()).as("rolled forward by the record").isEqualTo(35L);
        coordinator.sweep(HOME, clean -> { });
        cas.landAll();
        assertThat(cas.state(HOME).records()).isEmpty();
        assertThat(cas.state(DST).markers()).as("its markers are gone too").isEmpty();
    }

    /** Retirement (§3.9): the home is checked by the drop itself, so a home that is a participant gets no Forget. */
    @Test
    void retiringARecordWhoseHomeTookPartForgetsOnlyTheOtherParticipants() {
        cas.states.put(HOME, PartitionState.<Long>of(null)
                .withRecord(Record.staging(ID, 0, 0, DEADLINE, List.of(HOME, SRC)).finish(true, null)));
        cas.states.put(SRC, PartitionState.of(70L));
        cas.nowMicros = DEADLINE + SWEPT_AFTER_MICROS;
        coordinator.sweep(HOME, clean -> { });
        cas.land(ManualCas.step(Inspect.class, HOME));
        assertThat(cas.pending).as("one Forget, of the other participant").singleElement()
                .matches(ManualCas.step(Forget.class, SRC));
        cas.landAll();
        assertThat(cas.state(HOME).records()).isEmpty();
    }

    /** A transfer of 30 committed at epoch 0: the source rolled forward, the destination still locked. */
    private void committedWithTheDestinationLeftLocked() {
        cas.states.put(HOME, PartitionState.<Long>of(null)
                .withRecord(Record.staging(ID, 0, 0, DEADLINE, List.of(SRC, DST)).finish(true, null)));
        cas.states.put(SRC, PartitionState.of(70L));
        cas.states.put(DST, PartitionState.of(5L).withIntent(new Intent<>(new Attempt(ID, 0), HOME, 0, DEADLINE, 35L)));
    }

    private void tickAfter(long deltaNanos) {
        nanos += deltaNanos;
        coordinator.tick();
    }
}

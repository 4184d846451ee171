package ballot.txn.coordinator;

import ballot.txn.PartitionKey;
import ballot.txn.Transaction;
import ballot.txn.TxnResult;
import ballot.txn.spi.Clock;
import ballot.txn.spi.Observer;
import ballot.txn.spi.PartitionCas;
import ballot.txn.spi.RandomSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The transaction coordinator of one node (docs/txn.md §4-§6): runs submitted transactions over per-partition CAS
 * with parallel commit, 1PC, wait-die and recovery, and sweeps partitions for abandoned transactions.
 *
 * <p>A pure state machine: inputs are {@link #submit}, {@link #sweep}, the {@link PartitionCas} replies and
 * {@link #tick} (call every millisecond or so); outputs are CAS steps through {@link PartitionCas} and answers through
 * callbacks, invoked from those calls. Not thread-safe: the server confines an instance to one thread, which also
 * delivers its CAS replies.
 */
public final class TxnCoordinator<V> {
    private final Context<V> ctx;
    private final List<Run<V>> runs = new ArrayList<>();

    private TxnCoordinator(Context<V> ctx) {
        this.ctx = ctx;
    }

    public static <V> Builder<V> builder(PartitionCas<V> cas) {
        return new Builder<>(cas);
    }

    /**
     * Runs {@code txn}. {@code answer} hears exactly one result, at the latest at the first {@link #tick} after
     * {@code timeoutNanos} from now; a result found in the record (a retry of a decided transaction) carries no reads.
     * The callback must not call back into this coordinator.
     */
    public void submit(Transaction<V> txn, long timeoutNanos, Consumer<TxnResult<V>> answer) {
        Objects.requireNonNull(txn, "txn");
        Objects.requireNonNull(answer, "answer");
        if (timeoutNanos <= 0) throw new IllegalArgumentException("timeoutNanos is " + timeoutNanos + "; must be positive");
        Run<V> run = new Run<>(ctx, txn, ctx.clock.nanoTime() + timeoutNanos, answer);
        runs.add(run);
        run.start();
    }

    /**
     * Inspects {@code key}, recovers the intent and the expired staging records found there (docs/txn.md §6.3), and
     * drops the decided records the retention rule allows (§2) once they are {@link #sweptAfter} old. {@code done}
     * hears whether the partition held no intent and no staging record when inspected.
     */
    public void sweep(PartitionKey key, Consumer<Boolean> done) {
        Sweep.run(ctx, Objects.requireNonNull(key, "key"), Objects.requireNonNull(done, "done"));
    }

    /**
     * How long after its deadline the sweep retires a decided record (docs/txn.md §6.3): a background period past the
     * retention window, so that the coordinator that settled a commit drops its record first, without the sweep's
     * {@code Forget}s. A host that picks the partitions to sweep waits as long.
     */
    public static Duration sweptAfter(Duration retention, Duration background) {
        return retention.plus(background);
    }

    /** Runs due timers and answers transactions past their timeout. */
    public void tick() {
        ctx.runDueTimers();
        long now = ctx.clock.nanoTime();
        for (Run<V> run : runs) run.tick(now);
        runs.removeIf(Run::over);
    }

    /**
     * True when {@link #tick} has nothing to do soon: no submitted transaction is still tracked and no timer is set but
     * record retirements (docs/txn.md §4.3), which wait a retention window and tolerate a late tick. Only a submission,
     * a reply or a sweep (each a call on the coordinator's thread) can end it, so a host that ticks a quiet coordinator
     * only after one of those, and besides about once a second for the retirements, misses nothing.
     */
    public boolean quiet() {
        return runs.isEmpty() && ctx.noTimers();
    }

    /** Builds a coordinator; every setting has a default except the CAS port, and errors name the setting. */
    public static final class Builder<V> {
        private final PartitionCas<V> cas;
        private Clock clock;
        private RandomSource random;
        private Observer observer = Observer.NONE;
        private Duration epochLifetime = Duration.ofSeconds(5);
        private Duration retry = Duration.ofMillis(5);
        private Duration backoff = Duration.ofMillis(2);
        private Duration backoffMax = Duration.ofMillis(100);
        private Duration background = Duration.ofSeconds(30);
        private Duration reservation = Duration.ofMillis(50);
        private Duration retention = Duration.ofHours(1);

        private Builder(PartitionCas<V> cas) {
            this.cas = Objects.requireNonNull(cas, "cas");
        }

        public Builder<V> clock(Clock c) {
            this.clock = c;
            return this;
        }

        public Builder<V> random(RandomSource r) {
            this.random = r;
            return this;
        }

        public Builder<V> observer(Observer o) {
            this.observer = Objects.requireNonNull(o, "observer");
            return this;
        }

        /** How long a restarted epoch may run before others may recover it (docs/txn.md §7). */
        public Builder<V> epochLifetime(Duration d) {
            this.epochLifetime = positive("epochLifetime", d);
            return this;
        }

        /** Delay before a step whose result was lost is sent again. */
        public Builder<V> retry(Duration d) {
            this.retry = positive("retry", d);
            return this;
        }

        /** Random back-off before a restart or a placement behind a live intent: from {@code base}, doubling to {@code max}. */
        public Builder<V> backoff(Duration base, Duration max) {
            this.backoff = positive("backoff", base);
            this.backoffMax = positive("backoffMax", max);
            if (max.compareTo(base) < 0)
                throw new IllegalArgumentException("backoffMax " + max + " is below backoff " + base);
            return this;
        }

        /** How long the background finish, recovery and sweep keep resending lost steps. */
        public Builder<V> background(Duration d) {
            this.background = positive("background", d);
            return this;
        }

        /**
         * How long a placement that waits behind a younger transaction's intent reserves the partition against younger
         * placements (docs/txn.md §5.1). Each poll renews it, so it must exceed the time between two polls (a record
         * read, the back-off and a placement); it only delays others when the waiter is gone.
         */
        public Builder<V> reservation(Duration d) {
            this.reservation = positive("reservation", d);
            return this;
        }

        /**
         * How long the sweep keeps a decided record after its deadline (docs/txn.md §2): the window in which a client
         * retry with the same id gets the recorded answer; a retry after it runs as a new transaction. It must exceed
         * {@link #background}, so that no coordinator still resends a step of the transaction when its record goes.
         */
        public Builder<V> retention(Duration d) {
            this.retention = positive("retention", d);
            return this;
        }

        public TxnCoordinator<V> build() {
            if (clock == null) throw new IllegalStateException("clock is not set");
            if (random == null) throw new IllegalStateException("random is not set");
            if (retention.compareTo(background) <= 0)
                throw new IllegalArgumentException("retention " + retention + " must exceed background " + background);
            Options options = new Options(epochLifetime.toNanos() / 1000, retry.toNanos(), backoff.toNanos(),
                    backoffMax.toNanos(), background.toNanos(), reservation.toNanos() / 1000, retention.toNanos() / 1000,
                    sweptAfter(retention, background).toNanos() / 1000);
            return new TxnCoordinator<>(new Context<>(cas, clock, random, observer, options));
        }

        private static Duration positive(String setting, Duration d) {
            if (d == null || d.isNegative() || d.isZero())
                throw new IllegalArgumentException(setting + " is " + d + "; must be positive");
            return d;
        }
    }
}

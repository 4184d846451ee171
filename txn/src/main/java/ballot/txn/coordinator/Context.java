package ballot.txn.coordinator;

import ballot.txn.Mark;
import ballot.txn.PartitionKey;
import ballot.txn.spi.Clock;
import ballot.txn.spi.Observer;
import ballot.txn.spi.PartitionCas;
import ballot.txn.spi.RandomSource;
import ballot.txn.step.Reply;
import ballot.txn.step.Step;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/** What every task of one coordinator shares: the SPI, the options, and the timers that {@code tick} runs. */
final class Context<V> {
    final PartitionCas<V> cas;
    final Clock clock;
    final RandomSource random;
    final Observer observer;
    final Options options;
    /** Retirements set to run at the end of a retention window (§6.3); beyond it, the sweep retires the record. */
    static final int RETIREMENTS_MAX = 65_536;

    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    /** Retirements by the time they are due; not timers for {@link #noTimers}, which they would keep from quiet. */
    private final PriorityQueue<Timer> retirements = new PriorityQueue<>();
    private long timerSeq;

    private record Timer(long atNanos, long seq, Runnable action) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer o) {
            return atNanos != o.atNanos ? Long.compare(atNanos, o.atNanos) : Long.compare(seq, o.seq);
        }
    }

    Context(PartitionCas<V> cas, Clock clock, RandomSource random, Observer observer, Options options) {
        this.cas = cas;
        this.clock = clock;
        this.random = random;
        this.observer = observer;
        this.options = options;
    }

    /**
     * Sends {@code step} until its result is known: a lost result sends the same step again (steps are idempotent,
     * docs/txn.md §4.7) until {@code untilNanos}, after which {@code onGiveUp} runs instead.
     */
    void send(PartitionKey key, Step<V> step, long untilNanos, Consumer<Reply> onKnown, Runnable onGiveUp) {
        cas.apply(key, step, reply -> {
            if (!(reply instanceof Reply.Unknown)) {
                onKnown.accept(reply);
                return;
            }
            observer.mark(Mark.STEP_UNKNOWN);
            if (clock.nanoTime() >= untilNanos) onGiveUp.run();
            else after(options.retryNanos(), () -> send(key, step, untilNanos, onKnown, onGiveUp));
        });
    }

    void after(long delayNanos, Runnable action) {
        timers.add(new Timer(clock.nanoTime() + Math.max(1, delayNanos), timerSeq++, action));
    }

    /**
     * Runs {@code retirement} once this node's wall clock passes {@code atWallMicros}, unless {@link #RETIREMENTS_MAX}
     * are already waiting: then nothing runs, and the sweep retires the record later.
     */
    void retireAt(long atWallMicros, Runnable retirement) {
        if (retirements.size() >= RETIREMENTS_MAX) {
            observer.mark(Mark.RETIREMENT_LEFT_TO_SWEEP);
            return;
        }
        long delayNanos = Math.max(1, (atWallMicros - clock.wallMicros()) * 1000);
        retirements.add(new Timer(clock.nanoTime() + delayNanos, timerSeq++, retirement));
    }

    /** A random back-off that doubles with {@code attempt}, up to the cap. */
    long backoff(int attempt) {
        long ceiling = Math.min(options.backoffMaxNanos(), options.backoffNanos() << Math.min(attempt, 16));
        return options.backoffNanos() / 2 + random.nextLong(Math.max(1, ceiling));
    }

    long backgroundDeadline() {
        return clock.nanoTime() + options.backgroundNanos();
    }

    boolean noTimers() {
        return timers.isEmpty();
    }

    void runDueTimers() {
        long now = clock.nanoTime();
        while (!timers.isEmpty() && timers.peek().atNanos() <= now) timers.poll().action().run();
        while (!retirements.isEmpty() && retirements.peek().atNanos() <= now) retirements.poll().action().run();
    }
}

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
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
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
    }
}

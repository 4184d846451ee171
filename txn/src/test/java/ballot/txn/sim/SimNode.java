package ballot.txn.sim;

import ballot.txn.Mark;
import ballot.txn.PartitionKey;
import ballot.txn.coordinator.TxnCoordinator;
import ballot.txn.spi.Clock;
import ballot.txn.spi.PartitionCas;
import ballot.txn.step.Reply;
import ballot.txn.step.Step;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A coordinator node: a {@link TxnCoordinator} over a faulty simulated CAS, with a skewed wall clock. A crash loses
 * everything in memory (in-flight transactions, background finishes, timers); steps already sent may still land,
 * and their replies are dropped.
 */
final class SimNode {
    static final Duration EPOCH_LIFETIME = Duration.ofMillis(60);
    /** Longer than a client's retries (about 0.6 s) and the background period, short enough to drop during runs. */
    static final Duration RETENTION = Duration.ofMillis(2_500);
    static final Duration BACKGROUND = Duration.ofSeconds(2);

    final int id;
    private final SimLoop loop;
    private final SimStore store;
    private final SimOptions options;
    private final SplittableRandom random;
    private final Map<Mark, Integer> marks;
    private final long wallSkewMicros;
    private int incarnation;
    private TxnCoordinator<Long> coordinator;

    SimNode(int id, SimLoop loop, SimStore store, SimOptions options, SplittableRandom random, Map<Mark, Integer> marks) {
        this.id = id;
        this.loop = loop;
        this.store = store;
        this.options = options;
        this.random = random;
        this.marks = marks;
        this.wallSkewMicros = random.nextLong(-10_000, 10_001);
    }

    final Clock clock = new Clock() {
        @Override
        public long nanoTime() {
            return loop.now();
        }

        @Override
        public long wallMicros() {
            return SimStore.EPOCH_MICROS + loop.now() / 1000 + wallSkewMicros;
        }
    };

    void start() {
        int inc = ++incarnation;
        SplittableRandom nodeRandom = random.split();
        coordinator = TxnCoordinator.builder(new Cas(inc))
                .clock(clock)
                .random(bound -> nodeRandom.nextLong(bound))
                .observer(mark -> marks.merge(mark, 1, Integer::sum))
                .epochLifetime(EPOCH_LIFETIME)
                .retry(Duration.ofMillis(2))
                .backoff(Duration.ofNanos(500_000), Duration.ofMillis(20))
                .background(BACKGROUND)
                .reservation(Duration.ofMillis(20))
                .retention(RETENTION)
                .build();
    }

    void crash() {
        coordinator = null;
    }

    boolean alive() {
        return coordinator != null;
    }

    TxnCoordinator<Long> coordinator() {
        return coordinator;
    }

    void tick() {
        if (coordinator != null) coordinator.tick();
    }

    private void deliver(int inc, Consumer<Reply> callback, Reply reply) {
        if (coordinator != null && inc == incarnation) callback.accept(reply);
    }

    private long delay() {
        return random.nextInt(20) == 0 ? random.nextLong(2 * SimOptions.MS, 40 * SimOptions.MS)
                : random.nextLong(50_000, 2 * SimOptions.MS);
    }

    /**
     * The CAS port as this incarnation sees it: a step lands after a delay and its reply comes back after another; a
     * lost result is answered UNKNOWN after a few milliseconds, and the step lands (maybe after that) or never does;
     * some steps land twice.
     */
    private final class Cas implements PartitionCas<Long> {
        private final int inc;

        Cas(int inc) {
            this.inc = inc;
        }

        @Override
        public void apply(PartitionKey key, Step<Long> step, Consumer<Reply> reply) {
            boolean lost = random.nextDouble() < options.loss();
            boolean lands = !lost || random.nextInt(3) > 0;
            long landsAt = loop.now() + delay();
            if (lands) {
                loop.at(landsAt, () -> {
                    Reply r = store.evaluate(key, step);
                    if (!lost) loop.after(delay(), () -> deliver(inc, reply, r));
                });
            }
            if (random.nextDouble() < options.duplicate()) loop.at(landsAt + delay(), () -> store.evaluate(key, step));
            if (lost) loop.after(random.nextLong(2 * SimOptions.MS, 15 * SimOptions.MS), () -> deliver(inc, reply, Reply.UNKNOWN));
        }
    }
}

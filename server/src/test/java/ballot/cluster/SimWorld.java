package ballot.cluster;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * Simulated time and the one thread everything runs on: events ordered by (time, sequence), so one seed gives one
 * run. Every run is bounded in simulated time and in steps.
 */
public final class SimWorld {
    private static final long STEPS_MAX = 5_000_000;

    private record Event(long atNanos, long sequence, Runnable task) {}

    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.atNanos != b.atNanos
            ? Long.compare(a.atNanos, b.atNanos) : Long.compare(a.sequence, b.sequence));
    private final SplittableRandom random;
    private long nowNanos = 1_000_000_000L;
    private long sequence;
    private long steps;

    public SimWorld(long seed) {
        random = new SplittableRandom(seed);
    }

    public SplittableRandom random() {
        return random;
    }

    public long nanoTime() {
        return nowNanos;
    }

    /** Simulated wall clock: an arbitrary epoch plus simulated time. */
    public long currentTimeMillis() {
        return 1_800_000_000_000L + nowNanos / 1_000_000;
    }

    public void at(long delayNanos, Runnable task) {
        queue.add(new Event(nowNanos + Math.max(0, delayNanos), sequence++, task));
    }

    /** Runs events until {@code done} holds (checked after every event) or {@code limit} of simulated time passed; returns {@code done}. */
    public boolean runUntil(BooleanSupplier done, Duration limit) {
        long end = nowNanos + limit.toNanos();
        while (!done.getAsBoolean()) {
            Event next = queue.peek();
            if (next == null || next.atNanos > end) {
                nowNanos = end;
                return done.getAsBoolean();
            }
            queue.poll();
            nowNanos = next.atNanos;
            next.task.run();
            if (++steps > STEPS_MAX) throw new IllegalStateException("simulation ran more than " + STEPS_MAX + " steps");
        }
        return true;
    }

    void runFor(Duration duration) {
        runUntil(() -> false, duration);
    }
}

package ballot.txn.sim;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/** Simulated time: events run in time order (ties in scheduling order), one at a time, so a seed replays a run. */
final class SimLoop {
    private record Event(long atNanos, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return atNanos != o.atNanos ? Long.compare(atNanos, o.atNanos) : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long seq;

    long now() {
        return now;
    }

    void at(long atNanos, Runnable action) {
        queue.add(new Event(Math.max(atNanos, now), seq++, action));
    }

    void after(long delayNanos, Runnable action) {
        at(now + delayNanos, action);
    }

    /** Runs events until {@code done} holds or time passes {@code untilNanos}; returns whether {@code done} held. */
    boolean runUntil(BooleanSupplier done, long untilNanos) {
        while (!done.getAsBoolean()) {
            Event next = queue.peek();
            if (next == null || next.atNanos() > untilNanos) {
                now = Math.max(now, untilNanos);
                return done.getAsBoolean();
            }
            queue.poll();
            now = next.atNanos();
            next.action().run();
        }
        return true;
    }

    void runFor(long nanos) {
        runUntil(() -> false, now + nanos);
    }
}

package ballot.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A node under open-loop overload, simulated: requests arrive at 4x what its two request threads can serve, each needs
 * 1 ms of a thread, and its client gives up after 500 ms. Without admission the request executor's queue grows
 * without bound and the node spends its threads on requests nobody waits for: goodput (answers in time per second)
 * collapses. With the {@link GrantCoordinator} in front, it stays near capacity, and work of a higher priority keeps
 * its unloaded latency. One seed, one event loop: the run is the same every time.
 */
class OverloadSimulationTest {
    private static final long MS = 1_000_000L;
    private static final int THREADS = 2;
    private static final long SERVICE = MS;
    private static final long CLIENT_TIMEOUT = 500 * MS;
    private static final long DURATION = 10_000 * MS;
    private static final double OVERLOAD = 4.0;

    @Test
    void admissionKeepsGoodputNearCapacityWhereTheUnboundedQueueCollapses() {
        Result without = new Node(false, 42, OVERLOAD).run();
        Result with = new Node(true, 42, OVERLOAD).run();
        double capacity = THREADS * 1000.0; // per second
        assertThat(without.goodputPerSecondAfterWarmUp()).as("without admission").isLessThan(0.2 * capacity);
        assertThat(with.goodputPerSecondAfterWarmUp()).as("with admission").isGreaterThan(0.9 * capacity);
        System.out.printf("goodput per second: %.0f without admission, %.0f with; capacity %.0f%n",
                without.goodputPerSecondAfterWarmUp(), with.goodputPerSecondAfterWarmUp(), capacity);
        assertThat(with.refused).as("the rest is refused, not left to time out").isGreaterThan(with.arrived / 2);
    }

    @Test
    void theHighestPriorityKeepsItsUnloadedLatencyUnderOverload() {
        Result unloaded = new Node(true, 7, 0.5).run();
        Result overloaded = new Node(true, 7, OVERLOAD).run();
        long unloadedP99 = unloaded.percentile(unloaded.intentHolderLatencies, 0.99);
        long overloadedP99 = overloaded.percentile(overloaded.intentHolderLatencies, 0.99);
        assertThat(overloaded.intentHolderLatencies).hasSizeGreaterThan(1000);
        assertThat(overloadedP99).as("p99 of intent holders at 4x load (ns), against %d ns at half load", unloadedP99)
                .isLessThanOrEqualTo(2 * unloadedP99);
        System.out.printf("intent holders' p99: %.2f ms at half load, %.2f ms at 4x%n", unloadedP99 / 1e6, overloadedP99 / 1e6);
    }

    private record Event(long at, int kind, Request request) {}

    private static final class Request {
        final long arrived;
        final Priority priority;
        Grant grant;
        long queuedForThread;

        Request(long arrived, Priority priority) {
            this.arrived = arrived;
            this.priority = priority;
        }
    }

    private static final class Result {
        long arrived;
        long refused;
        /** Answers given in time, by the second they were given in. */
        final long[] inTimeBySecond = new long[(int) (DURATION / (1000 * MS)) + 1];
        final List<Long> intentHolderLatencies = new ArrayList<>();

        double goodputPerSecondAfterWarmUp() {
            long sum = 0;
            for (int s = 2; s < inTimeBySecond.length - 1; s++) sum += inTimeBySecond[s];
            return sum / (double) (inTimeBySecond.length - 3);
        }

        long percentile(List<Long> values, double q) {
            List<Long> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
        }
    }

    /** Two request threads behind a FIFO executor queue, with or without a coordinator in front. */
    private static final class Node {
        private static final int ARRIVAL = 0;
        private static final int DONE = 1;
        private static final int TICK = 2;

        private final boolean admission;
        private final double load;
        private final Random random;
        private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        private final ArrayDeque<Request> executorQueue = new ArrayDeque<>();
        private final Result result = new Result();
        private long now;
        private int busyThreads;
        private final GrantCoordinator coordinator;
        private final SlotGranter slots;

        /** @param load arrivals, as a multiple of what the threads can serve */
        Node(boolean admission, long seed, double load) {
            this.admission = admission;
            this.load = load;
            this.random = new Random(seed);
            // The core's behaviour, not the node's tuning: one slot per thread to begin with, at most 8 per thread
            AdmissionSettings settings = new AdmissionSettings(10_000, THREADS, 1, 8 * THREADS, 2 * MS, 105 * MS, 100 * MS);
            this.slots = new SlotGranter(settings);
            this.coordinator = new GrantCoordinator(settings, slots, () -> now, AdmissionObserver.NONE);
        }

        Result run() {
            double meanGap = SERVICE / (THREADS * load);
            for (double t = 0; t < DURATION; t += -Math.log(1 - random.nextDouble()) * meanGap) {
                Priority priority = random.nextInt(20) == 0 ? Priority.INTENT_HOLDER : Priority.NORMAL;
                events.add(new Event((long) t, ARRIVAL, new Request((long) t, priority)));
            }
            if (admission) for (long t = 0; t < DURATION + CLIENT_TIMEOUT; t += 10 * MS) events.add(new Event(t, TICK, null));
            while (!events.isEmpty()) {
                Event e = events.poll();
                now = e.at;
                switch (e.kind) {
                    case ARRIVAL -> arrive(e.request);
                    case DONE -> done(e.request);
                    default -> coordinator.tick();
                }
            }
            return result;
        }

        private void arrive(Request request) {
            result.arrived++;
            if (!admission) {
                enqueueForThread(request);
                return;
            }
            coordinator.submit(new WorkInfo("ks", request.priority, request.arrived, request.arrived + CLIENT_TIMEOUT, 0), new Requester() {
                @Override
                public void admitted(Grant grant) {
                    request.grant = grant;
                    enqueueForThread(request);
                }

                @Override
                public void refused(Refusal why) {
                    result.refused++;
                }
            });
        }

        private void enqueueForThread(Request request) {
            request.queuedForThread = now;
            executorQueue.add(request);
            startWhileThreadsFree();
        }

        private void startWhileThreadsFree() {
            while (busyThreads < THREADS && !executorQueue.isEmpty()) {
                Request next = executorQueue.poll();
                if (admission) slots.executorDelay(now - next.queuedForThread);
                busyThreads++;
                events.add(new Event(now + SERVICE, DONE, next));
            }
        }

        private void done(Request request) {
            busyThreads--;
            long latency = now - request.arrived;
            if (latency <= CLIENT_TIMEOUT && now < DURATION) result.inTimeBySecond[(int) (now / (1000 * MS))]++;
            if (request.priority == Priority.INTENT_HOLDER && request.arrived > 2000 * MS) result.intentHolderLatencies.add(latency);
            if (request.grant != null) request.grant.release();
            startWhileThreadsFree();
        }
    }
}

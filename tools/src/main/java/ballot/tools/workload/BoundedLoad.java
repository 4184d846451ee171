package ballot.tools.workload;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a workload's operations 0..count-1 as a closed loop with at most {@code workers} requests outstanding (each
 * completion lets the next request start), reports progress every interval, and stops issuing at the deadline if one
 * is set. The operation is the workload's: pop registers account {@code index}; pay will make transfer {@code index}.
 */
final class BoundedLoad {
    /** One request of a workload; its stage completes with the outcome or fails with the error. */
    @FunctionalInterface
    interface Operation<O extends Enum<O>> {
        CompletionStage<O> start(long index);
    }

    private final int workers;
    private final Duration duration;
    private final Duration progressInterval;
    private final Consumer<String> progress;

    /** {@code duration} null: no deadline. {@code progress} receives each progress line, from a timer thread. */
    BoundedLoad(int workers, Duration duration, Duration progressInterval, Consumer<String> progress) {
        if (workers < 1) throw new IllegalArgumentException("workers is " + workers + "; it must be at least 1");
        this.workers = workers;
        this.duration = duration;
        this.progressInterval = progressInterval;
        this.progress = progress;
    }

    <O extends Enum<O>> LoadResult<O> run(long count, Class<O> outcomes, Operation<O> operation) throws InterruptedException {
        long startNanos = System.nanoTime();
        Tally<O> tally = new Tally<>(outcomes, count, startNanos);
        Semaphore permits = new Semaphore(workers);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "workload-progress");
            t.setDaemon(true);
            return t;
        });
        long intervalNanos = progressInterval.toNanos();
        timer.scheduleAtFixedRate(() -> progress.accept(Report.progress(tally.interval(System.nanoTime()))),
                intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
        boolean stoppedEarly = false;
        try {
            for (long index = 0; index < count; index++) {
                if (!acquireInTime(permits, startNanos)) {
                    stoppedEarly = true;
                    break;
                }
                issue(operation, index, tally, permits);
            }
            permits.acquire(workers); // every issued request has completed
        } finally {
            timer.shutdownNow();
            timer.awaitTermination(10, TimeUnit.SECONDS);
        }
        long endNanos = System.nanoTime();
        Interval last = tally.interval(endNanos);
        if (last.intervalCompleted() > 0) progress.accept(Report.progress(last));
        return tally.result(endNanos, stoppedEarly);
    }

    /** Waits for a free worker; false once the deadline has passed. */
    private boolean acquireInTime(Semaphore permits, long startNanos) throws InterruptedException {
        if (duration == null) {
            permits.acquire();
            return true;
        }
        long remainingNanos = duration.toNanos() - (System.nanoTime() - startNanos);
        return remainingNanos > 0 && permits.tryAcquire(remainingNanos, TimeUnit.NANOSECONDS);
    }

    private static <O extends Enum<O>> void issue(Operation<O> operation, long index, Tally<O> tally, Semaphore permits) {
        long beganNanos = System.nanoTime();
        CompletionStage<O> request;
        try {
            request = operation.start(index);
        } catch (RuntimeException e) {
            request = CompletableFuture.failedFuture(e);
        }
        request.whenComplete((outcome, error) -> {
            try {
                if (error == null) tally.outcome(outcome, System.nanoTime() - beganNanos);
                else tally.error(error);
            } finally {
                permits.release();
            }
        });
    }
}

package ballot.cluster;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The production {@link Scheduler}: one daemon thread. A task that throws is logged, never lost silently. */
final class ExecutorScheduler implements Scheduler, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ExecutorScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    ExecutorScheduler(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public void execute(Runnable task) {
        try {
            executor.execute(guarded(task));
        } catch (RejectedExecutionException e) {
            log.debug("membership is closed; dropped a task");
        }
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        try {
            executor.schedule(guarded(task), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("membership is closed; dropped a task");
        }
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | AssertionError e) {
                log.error("membership task failed; gossip continues", e);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package ballot.lwt;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Paxos lane's thread: runs tasks one at a time, in two classes (docs/admission.md, "Paxos lanes"). A task of
 * background work runs only when no other task is waiting; within a class, tasks run in the order given.
 */
final class LaneExecutor {
    private static final Logger log = LoggerFactory.getLogger(LaneExecutor.class);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final ArrayDeque<Runnable> first = new ArrayDeque<>();
    private final ArrayDeque<Runnable> later = new ArrayDeque<>();
    private final Thread thread;
    private final long stopWaitMillis;
    /** Guarded by {@link #lock}. */
    private boolean idle;
    private boolean stopping;

    LaneExecutor(String name) {
        this(name, TimeUnit.SECONDS.toMillis(5));
    }

    /** @param stopWaitMillis how long {@link #stop} waits for the queued tasks, and then for the running one */
    LaneExecutor(String name, long stopWaitMillis) {
        this.stopWaitMillis = stopWaitMillis;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues {@code task}, behind every other waiting task if {@code background}, else ahead of the background ones.
     *
     * @throws RejectedExecutionException once {@link #stop} was called
     */
    void execute(Runnable task, boolean background) {
        lock.lock();
        try {
            if (stopping) throw new RejectedExecutionException("the lane is stopping");
            (background ? later : first).add(task);
            if (idle) work.signal(); // only a waiting thread needs waking: the cost of an unpark is paid when it is
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        while (true) {
            Runnable task;
            lock.lock();
            try {
                while ((task = first.isEmpty() ? later.poll() : first.poll()) == null) {
                    if (stopping) return;
                    idle = true;
                    work.awaitUninterruptibly();
                    idle = false;
                }
            } finally {
                lock.unlock();
            }
            try {
                task.run();
            } catch (Throwable e) { // the lane must outlive any task: its partitions have nowhere else to run
                log.error("paxos lane task failed; the lane goes on", e);
            }
        }
    }

    /**
     * Refuses new tasks and lets the queued ones run for up to the stop wait (5 s); then drops those still queued,
     * interrupts the running one and waits as long again for it, so that nothing of the lane runs once the node
     * closes its storage. An interrupt of the caller does not cut these waits short (it is kept for the caller).
     * Returns how many tasks were dropped.
     */
    int stop() {
        lock.lock();
        try {
            stopping = true;
            work.signal();
        } finally {
            lock.unlock();
        }
        boolean interrupted = joinUninterruptibly();
        int dropped = 0;
        if (thread.isAlive()) {
            lock.lock();
            try {
                dropped = first.size() + later.size();
                first.clear();
                later.clear();
            } finally {
                lock.unlock();
            }
            thread.interrupt();
            interrupted |= joinUninterruptibly();
            if (thread.isAlive()) log.warn("{} still runs a task {} ms after it was interrupted", thread.getName(), stopWaitMillis);
        }
        if (interrupted) Thread.currentThread().interrupt();
        return dropped;
    }

    /** Waits up to the stop wait for the thread to end; returns whether the caller was interrupted meanwhile. */
    private boolean joinUninterruptibly() {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stopWaitMillis);
        while (thread.isAlive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) break;
            try {
                TimeUnit.NANOSECONDS.timedJoin(thread, left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}

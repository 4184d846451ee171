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
 * background work runs only when no other task is waiting; within a class, tasks run in the order given. All tasks of
 * one partition are of one class (its keyspace decides), so a partition's tasks keep their order.
 */
final class LaneExecutor {
    private static final Logger log = LoggerFactory.getLogger(LaneExecutor.class);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final ArrayDeque<Runnable> first = new ArrayDeque<>();
    private final ArrayDeque<Runnable> later = new ArrayDeque<>();
    private final Thread thread;
    /** Guarded by {@link #lock}. */
    private boolean idle;
    private boolean stopping;

    LaneExecutor(String name) {
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

    /** Refuses new tasks, lets the queued ones run for up to 5 s, then interrupts the thread. */
    void stop() {
        lock.lock();
        try {
            stopping = true;
            work.signal();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
            if (thread.isAlive()) thread.interrupt();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.interrupt();
        }
    }
}

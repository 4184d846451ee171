package ballot.cluster;

/**
 * The membership thread and its clock. Every change to gossip state runs as a task here, one at a time, so the state
 * needs no locks; a simulation runs all nodes' schedulers on one thread in simulated time.
 */
interface Scheduler {
    long nanoTime();

    /** Wall-clock time, only for deadlines that all nodes must share (when a LEFT node is forgotten). */
    long currentTimeMillis();

    void execute(Runnable task);

    void schedule(long delayNanos, Runnable task);
}

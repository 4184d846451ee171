package ballot.cluster;

/** One process's {@link Scheduler} in a {@link SimWorld}. When the process crashes its pending tasks never run. */
public final class SimScheduler implements Scheduler {
    private final SimWorld world;
    private boolean dead;

    public SimScheduler(SimWorld world) {
        this.world = world;
    }

    void kill() {
        dead = true;
    }

    @Override
    public long nanoTime() {
        return world.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
        return world.currentTimeMillis();
    }

    @Override
    public void execute(Runnable task) {
        schedule(0, task);
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        world.at(delayNanos, () -> {
            if (!dead) task.run();
        });
    }
}

package ballot.lwt;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Ticks a protocol's coordinators every period while any of them is awake, and not at all while all are quiet, so an
 * idle node makes no wakeups for them (a fixed-rate tick costs a timer wakeup and a lane wakeup per period, idle or
 * not). Whoever may have woken a coordinator calls {@link #wake}; the ticker stops itself once {@code awake} says no.
 *
 * <p>Invariant: while {@code awake} is true, a tick is scheduled. {@link #wake} after a coordinator's state is published
 * either finds {@code scheduled} set (a tick is coming, and it reads {@code awake} afresh) or sets it and schedules
 * one; a tick that finds nothing awake clears {@code scheduled} and then reads {@code awake} once more, so a wake that
 * raced with it is not lost.
 */
public final class DemandTicker {
    private final ScheduledExecutorService timer;
    private final long periodNanos;
    private final BooleanSupplier awake;
    private final Runnable tick;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /**
     * @param awake whether any coordinator has something a tick would do; read on the timer thread, so it reads
     *     state the coordinators publish (volatile)
     * @param tick hands a tick to each awake coordinator (on its own thread); runs on the timer thread
     */
    public DemandTicker(ScheduledExecutorService timer, Duration period, BooleanSupplier awake, Runnable tick) {
        if (period.isNegative() || period.isZero()) throw new IllegalArgumentException("tick period is " + period + "; must be positive");
        this.timer = timer;
        this.periodNanos = period.toNanos();
        this.awake = awake;
        this.tick = tick;
    }

    /** A coordinator may be awake now: makes sure a tick comes within a period. Any thread; cheap when one is coming. */
    public void wake() {
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) schedule();
    }

    private void fire() {
        if (awake.getAsBoolean()) {
            tick.run();
            schedule();
            return;
        }
        scheduled.set(false);
        if (awake.getAsBoolean()) wake();
    }

    private void schedule() {
        try {
            timer.schedule(this::fire, periodNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopping) {
            // the node is stopping: nothing needs ticks any more
        }
    }
}

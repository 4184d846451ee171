package ballot.admission;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many works may be in flight at once. The count follows a live signal, the longest wait of work for a thread in
 * the last tick ({@link #executorDelay}, reported by the shell from any thread): above the target the CPU is already
 * queueing work, so slots shrink to 80% (multiplicative decrease); at or below it while all slots were in use, one
 * more (additive increase).
 */
public final class SlotGranter implements Granter {
    private final int min;
    private final int max;
    private final long delayTargetNanos;
    /** The longest wait for a thread reported since the last adjustment. */
    private final AtomicLong executorDelayNanos = new AtomicLong();
    private int slots;
    private int used;
    /** Whether every slot was in use at some moment since the last adjustment. */
    private boolean saturated;

    public SlotGranter(AdmissionSettings settings) {
        this.slots = settings.slotsInitial();
        this.min = settings.slotsMin();
        this.max = settings.slotsMax();
        this.delayTargetNanos = settings.executorDelayTargetNanos();
    }

    /** The shell's report: a granted work waited {@code nanos} for a thread (the signal). */
    public void executorDelay(long nanos) {
        executorDelayNanos.accumulateAndGet(nanos, Math::max);
    }

    @Override
    public boolean hasRoom() {
        return used < slots;
    }

    @Override
    public void take(WorkInfo work) {
        used++;
        if (used >= slots) saturated = true;
    }

    @Override
    public void giveBack() {
        used--;
    }

    @Override
    public void adjust(long nowNanos) {
        if (executorDelayNanos.getAndSet(0) > delayTargetNanos) slots = Math.max(min, Math.min(slots - 1, slots * 4 / 5));
        else if (saturated) slots = Math.min(max, slots + 1);
        saturated = used >= slots;
    }

    /** Slots now. */
    public int slots() {
        return slots;
    }

    /** Slots held now. */
    public int used() {
        return used;
    }

    @Override
    public String describe() {
        return "slots=" + slots + " used=" + used;
    }
}

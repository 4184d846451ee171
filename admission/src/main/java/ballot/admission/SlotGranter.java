package ballot.admission;

/**
 * How many works may be in flight at once. The count follows a live signal, the longest wait of work for a thread in
 * the last tick (the shell reports it): above the target the CPU is already queueing work, so slots shrink to 80%
 * (multiplicative decrease); at or below it while all slots were in use, one more (additive increase). Not thread-safe:
 * the {@link GrantCoordinator}'s lock guards it.
 */
final class SlotGranter {
    private final int min;
    private final int max;
    private final long delayTargetNanos;
    private int slots;
    private int used;
    /** Whether every slot was in use at some moment since the last adjustment. */
    private boolean saturated;

    SlotGranter(int initial, int min, int max, long delayTargetNanos) {
        this.slots = initial;
        this.min = min;
        this.max = max;
        this.delayTargetNanos = delayTargetNanos;
    }

    boolean hasRoom() {
        return used < slots;
    }

    void take() {
        used++;
        if (used >= slots) saturated = true;
    }

    void giveBack() {
        used--;
    }

    /** Adjusts the slot count from the longest executor delay seen since the last call; returns the new count. */
    int adjust(long maxExecutorDelayNanos) {
        if (maxExecutorDelayNanos > delayTargetNanos) slots = Math.max(min, Math.min(slots - 1, slots * 4 / 5));
        else if (saturated) slots = Math.min(max, slots + 1);
        saturated = used >= slots;
        return slots;
    }

    int slots() {
        return slots;
    }

    int used() {
        return used;
    }
}

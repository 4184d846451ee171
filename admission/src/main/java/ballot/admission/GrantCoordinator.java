package ballot.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Admits work: one lock over a {@link WorkQueue} and its {@link SlotGranter} (the only lock here, so there is no lock
 * order to get wrong). Decisions are made under the lock and their callbacks run after it is released.
 *
 * <p>Invariants (docs/admission.md): work is never started at or after its deadline; if a slot is free the queue is
 * empty (every release, tick and submit grants while it can before returning); every submitted work is admitted or
 * refused exactly once; at most {@code queueMax} works wait.
 */
public final class GrantCoordinator {
    private final AdmissionSettings settings;
    private final LongSupplier clock;
    private final AdmissionObserver observer;
    private final WorkQueue queue = new WorkQueue();
    private final SlotGranter slots;
    /** The longest wait for a request thread reported since the last tick. */
    private final AtomicLong executorDelayNanos = new AtomicLong();
    private long sequence;
    private long lifoCheckedNanos;

    /** @param clock the system clock in nanoseconds in production, a simulated clock in tests */
    public GrantCoordinator(AdmissionSettings settings, LongSupplier clock, AdmissionObserver observer) {
        this.settings = settings;
        this.clock = clock;
        this.observer = observer;
        this.slots = new SlotGranter(settings.slotsInitial(), settings.slotsMin(), settings.slotsMax(),
                settings.executorDelayTargetNanos());
        this.lifoCheckedNanos = clock.getAsLong();
    }

    /** Asks for a grant for {@code work}; {@code requester} hears the answer, maybe before this returns. */
    public void submit(WorkInfo work, Requester requester) {
        Decisions decisions = new Decisions();
        Slot fast = null;
        synchronized (this) {
            long now = clock.getAsLong();
            if (work.deadlineNanos() <= now) {
                decisions.refuse(work, requester, Refusal.DEADLINE);
            } else if (queue.isEmpty() && slots.hasRoom()) {
                fast = grant(queue.tenant(work.tenant()));
            } else {
                if (queue.size() >= settings.queueMax()) {
                    WorkQueue.Waiting evicted = queue.evictFor(work.priority());
                    if (evicted == null) {
                        decisions.refuse(work, requester, Refusal.QUEUE_FULL);
                        requester = null;
                    } else {
                        decisions.refuse(evicted.work, evicted.requester, Refusal.QUEUE_FULL);
                    }
                }
                if (requester != null) queue.add(new WorkQueue.Waiting(work, requester, now, sequence++, settings.epochNanos()));
                grantWhileAble(now, decisions);
            }
        }
        if (fast != null) {
            observer.admitted(work.priority(), 0);
            requester.admitted(fast);
        }
        decisions.run(observer);
    }

    /**
     * A grant right now for {@code work}, or null if works are waiting or no slot is free (then {@link #submit} it):
     * for work cheap enough to run on the caller's thread.
     */
    public Grant tryNow(WorkInfo work) {
        Slot slot;
        synchronized (this) {
            if (!queue.isEmpty() || !slots.hasRoom() || work.deadlineNanos() <= clock.getAsLong()) return null;
            slot = grant(queue.tenant(work.tenant()));
        }
        observer.admitted(work.priority(), 0);
        return slot;
    }

    /** The request executor's report: a granted work waited {@code nanos} for a thread (the slot signal). */
    public void executorDelay(long nanos) {
        executorDelayNanos.accumulateAndGet(nanos, Math::max);
    }

    /**
     * Call every 10 ms or so: refuses works whose deadline has passed, adjusts the slots from the executor delay, once
     * an epoch switches lanes between FIFO and epoch-LIFO, and grants what the new slots allow.
     */
    public void tick() {
        Decisions decisions = new Decisions();
        synchronized (this) {
            long now = clock.getAsLong();
            List<WorkQueue.Waiting> expired = new ArrayList<>();
            queue.expire(now, expired);
            for (WorkQueue.Waiting w : expired) decisions.refuse(w.work, w.requester, Refusal.DEADLINE);
            slots.adjust(executorDelayNanos.getAndSet(0));
            if (now - lifoCheckedNanos >= settings.epochNanos()) {
                queue.adjustLifo(now, settings.lifoThresholdNanos());
                lifoCheckedNanos = now;
            }
            grantWhileAble(now, decisions);
        }
        decisions.run(observer);
    }

    /** Slots, use and waiting works, for metrics. */
    public synchronized Snapshot snapshot() {
        int[] waiting = new int[Priority.values().length];
        boolean[] lifo = new boolean[waiting.length];
        for (Priority p : Priority.values()) {
            waiting[p.ordinal()] = queue.waiting(p);
            lifo[p.ordinal()] = queue.lifo(p);
        }
        return new Snapshot(slots.slots(), slots.used(), waiting, lifo);
    }

    /** What {@link #snapshot} saw. */
    public record Snapshot(int slots, int used, int[] waitingByPriority, boolean[] lifoByPriority) {
        public int waiting(Priority p) {
            return waitingByPriority[p.ordinal()];
        }

        public boolean lifo(Priority p) {
            return lifoByPriority[p.ordinal()];
        }
    }

    /** The waiting works per tenant and lane, in grant order (tests and logs). */
    synchronized List<String> describe() {
        return queue.describe();
    }

    private void release(Slot slot) {
        Decisions decisions = new Decisions();
        synchronized (this) {
            if (slot.released) return;
            slot.released = true;
            slots.giveBack();
            slot.tenant.held--;
            queue.forgetIfIdle(slot.tenant);
            grantWhileAble(clock.getAsLong(), decisions);
        }
        decisions.run(observer);
    }

    /** Grants to the head of the queue while a slot is free; the expired heads met on the way are refused. */
    private void grantWhileAble(long now, Decisions decisions) {
        while (slots.hasRoom()) {
            WorkQueue.Waiting next = queue.next();
            if (next == null) return;
            WorkQueue.Tenant tenant = queue.tenant(next.work.tenant());
            if (next.work.deadlineNanos() <= now) {
                decisions.refuse(next.work, next.requester, Refusal.DEADLINE);
                queue.forgetIfIdle(tenant);
                continue;
            }
            long waited = now - next.enqueuedNanos;
            queue.granted(next, waited);
            decisions.admit(next, grant(tenant), waited);
        }
    }

    private Slot grant(WorkQueue.Tenant tenant) {
        slots.take();
        tenant.held++;
        return new Slot(tenant);
    }

    private final class Slot implements Grant {
        final WorkQueue.Tenant tenant;
        boolean released; // guarded by the coordinator's lock

        Slot(WorkQueue.Tenant tenant) {
            this.tenant = tenant;
        }

        @Override
        public void release() {
            GrantCoordinator.this.release(this);
        }
    }

    /** A decision made under the lock: a grant, or a refusal. */
    private record Decision(WorkInfo work, Requester requester, Grant grant, Refusal refusal, long waitedNanos) {}

    /** Decisions made under the lock, told after it is released. */
    private static final class Decisions {
        private List<Decision> told;

        void refuse(WorkInfo work, Requester requester, Refusal why) {
            add(new Decision(work, requester, null, why, 0));
        }

        void admit(WorkQueue.Waiting w, Grant grant, long waitedNanos) {
            add(new Decision(w.work, w.requester, grant, null, waitedNanos));
        }

        private void add(Decision decision) {
            if (told == null) told = new ArrayList<>(2);
            told.add(decision);
        }

        void run(AdmissionObserver observer) {
            if (told == null) return;
            for (Decision d : told) {
                if (d.refusal() != null) {
                    observer.refused(d.work().priority(), d.refusal());
                    d.requester().refused(d.refusal());
                } else {
                    observer.admitted(d.work().priority(), d.waitedNanos());
                    d.requester().admitted(d.grant());
                }
            }
        }
    }
}

package ballot.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Admits work: one lock over a {@link WorkQueue} and its {@link Granter} (the only lock here, so there is no lock
 * order to get wrong). Decisions are made under the lock and their callbacks run after it is released. A node has one
 * for CPU work, with a {@link SlotGranter}, and one for storage writes, with a {@link TokenGranter}; a write passes
 * the second, then the first.
 *
 * <p>Invariants (docs/admission.md): work is never started at or after its deadline; if the granter has room the queue is
 * empty (every release, tick and submit grants while it can before returning); every submitted work is admitted or
 * refused exactly once; at most {@code queueMax} works wait.
 */
public final class GrantCoordinator {
    private final AdmissionSettings settings;
    private final LongSupplier clock;
    private final AdmissionObserver observer;
    private final WorkQueue queue = new WorkQueue();
    private final Granter granter;
    private long sequence;
    private long lifoCheckedNanos;

    /** @param clock the system clock in nanoseconds in production, a simulated clock in tests */
    public GrantCoordinator(AdmissionSettings settings, Granter granter, LongSupplier clock, AdmissionObserver observer) {
        this.settings = settings;
        this.granter = granter;
        this.clock = clock;
        this.observer = observer;
        this.lifoCheckedNanos = clock.getAsLong();
    }

    /** Asks for a grant for {@code work}; {@code requester} hears the answer, maybe before this returns. */
    public void submit(WorkInfo work, Requester requester) {
        Decisions decisions = new Decisions();
        Issued fast = null;
        synchronized (this) {
            long now = clock.getAsLong();
            if (work.deadlineNanos() <= now) {
                decisions.refuse(work, requester, Refusal.DEADLINE);
            } else if (queue.isEmpty() && granter.hasRoom()) {
                fast = grant(work);
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
        Issued grant;
        synchronized (this) {
            if (!queue.isEmpty() || !granter.hasRoom() || work.deadlineNanos() <= clock.getAsLong()) return null;
            grant = grant(work);
        }
        observer.admitted(work.priority(), 0);
        return grant;
    }

    /**
     * Call every 10 ms or so: refuses works whose deadline has passed, lets the granter follow its signal, once
     * an epoch switches lanes between FIFO and epoch-LIFO, and grants what the new slots allow.
     */
    public void tick() {
        Decisions decisions = new Decisions();
        synchronized (this) {
            long now = clock.getAsLong();
            List<WorkQueue.Waiting> expired = new ArrayList<>();
            queue.expire(now, expired);
            for (WorkQueue.Waiting w : expired) decisions.refuse(w.work, w.requester, Refusal.DEADLINE);
            granter.adjust(now);
            if (now - lifoCheckedNanos >= settings.epochNanos()) {
                queue.adjustLifo(now, settings.lifoThresholdNanos());
                lifoCheckedNanos = now;
            }
            grantWhileAble(now, decisions);
        }
        decisions.run(observer);
    }

    /** Waiting works and lanes in epoch-LIFO, for metrics. */
    public synchronized Snapshot snapshot() {
        int[] waiting = new int[Priority.values().length];
        boolean[] lifo = new boolean[waiting.length];
        for (Priority p : Priority.values()) {
            waiting[p.ordinal()] = queue.waiting(p);
            lifo[p.ordinal()] = queue.lifo(p);
        }
        return new Snapshot(waiting, lifo);
    }

    /** What {@link #snapshot} saw. */
    public record Snapshot(int[] waitingByPriority, boolean[] lifoByPriority) {
        public int waiting(Priority p) {
            return waitingByPriority[p.ordinal()];
        }

        public boolean lifo(Priority p) {
            return lifoByPriority[p.ordinal()];
        }
    }

    /** The granter, then the waiting works per tenant and lane in grant order (tests and logs). */
    synchronized List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add(granter.describe());
        lines.addAll(queue.describe());
        return lines;
    }

    private void release(Issued grant) {
        giveBack(grant, true);
    }

    private void pause(Issued grant) {
        giveBack(grant, false);
    }

    /** Gives what {@code grant} holds back (a slot) to the next waiting work; {@code ends} also ends it (a paused one holds nothing). */
    private void giveBack(Issued grant, boolean ends) {
        Decisions decisions = new Decisions();
        synchronized (this) {
            if (grant.released) return;
            grant.released = ends;
            if (grant.paused) return;
            grant.paused = !ends;
            granter.giveBack();
            grant.tenant.held--;
            queue.forgetIfIdle(grant.tenant);
            grantWhileAble(clock.getAsLong(), decisions);
        }
        decisions.run(observer);
    }

    /** Takes again for a paused grant without waiting: its work was admitted already (see {@link Grant}). */
    private synchronized void resume(Issued grant) {
        if (grant.released || !grant.paused) return;
        grant.paused = false;
        granter.take(grant.work);
        grant.tenant = queue.tenant(grant.tenant.name); // a tenant holding nothing may have been forgotten meanwhile
        grant.tenant.held++;
    }

    /** Grants to the head of the queue while the granter has room; the expired heads met on the way are refused. */
    private void grantWhileAble(long now, Decisions decisions) {
        while (granter.hasRoom()) {
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
            decisions.admit(next, grant(next.work), waited);
        }
    }

    private Issued grant(WorkInfo work) {
        granter.take(work);
        WorkQueue.Tenant tenant = queue.tenant(work.tenant());
        tenant.held++;
        return new Issued(work, tenant);
    }

    private final class Issued implements Grant {
        final WorkInfo work;
        WorkQueue.Tenant tenant; // guarded by the coordinator's lock, as are released and paused
        boolean released;
        boolean paused;

        Issued(WorkInfo work, WorkQueue.Tenant tenant) {
            this.work = work;
            this.tenant = tenant;
        }

        @Override
        public void release() {
            GrantCoordinator.this.release(this);
        }

        @Override
        public void pause() {
            GrantCoordinator.this.pause(this);
        }

        @Override
        public void resume() {
            GrantCoordinator.this.resume(this);
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

package ballot.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The works waiting for a grant (docs/admission.md, "Ordering"): per tenant a lane per priority, each a sorted set;
 * the next grant goes to the tenant holding the fewest grants, to its highest non-empty priority, to the first of that
 * lane. A lane is FIFO by start time, or epoch-LIFO (newest epoch first, oldest start within it) while its queue delay
 * is high. Not thread-safe: the {@link GrantCoordinator}'s lock guards it.
 */
final class WorkQueue {
    /** A work waiting for a grant. */
    static final class Waiting {
        final WorkInfo work;
        final Requester requester;
        final long enqueuedNanos;
        final long sequence;
        final long epoch;

        Waiting(WorkInfo work, Requester requester, long enqueuedNanos, long sequence, long epochNanos) {
            this.work = work;
            this.requester = requester;
            this.enqueuedNanos = enqueuedNanos;
            this.sequence = sequence;
            this.epoch = Math.floorDiv(work.startNanos(), epochNanos);
        }
    }

    /** A tenant: its lanes and the grants its works hold. */
    static final class Tenant {
        final String name;
        final Lane[] lanes = new Lane[PRIORITIES.length];
        int held;

        Tenant(String name) {
            this.name = name;
            for (int i = 0; i < lanes.length; i++) lanes[i] = new Lane();
        }

        boolean idle() {
            return held == 0 && first() == null;
        }

        /** The first lane with waiting work, highest priority first, or null. */
        Lane first() {
            for (Lane lane : lanes) if (!lane.waiting.isEmpty()) return lane;
            return null;
        }
    }

    /** One (tenant, priority): its waiting works in grant order, and whether that order is epoch-LIFO. */
    static final class Lane {
        TreeSet<Waiting> waiting = new TreeSet<>(FIFO);
        boolean lifo;
        /** The longest queue delay of a work granted from this lane since the last {@link #adjustLifo}. */
        long maxDelayNanos;
    }

    private static final Priority[] PRIORITIES = Priority.values();
    static final Comparator<Waiting> FIFO = Comparator.<Waiting>comparingLong(w -> w.work.startNanos())
            .thenComparingLong(w -> w.sequence);
    static final Comparator<Waiting> EPOCH_LIFO = Comparator.<Waiting>comparingLong(w -> -w.epoch)
            .thenComparingLong(w -> w.work.startNanos()).thenComparingLong(w -> w.sequence);

    static final Comparator<Waiting> BY_DEADLINE = Comparator.<Waiting>comparingLong(w -> w.work.deadlineNanos())
            .thenComparingLong(w -> w.sequence);

    private final Map<String, Tenant> tenants = new HashMap<>();
    /** Every waiting work, soonest deadline first: expiry takes only the expired, however long the queue. */
    private final TreeSet<Waiting> byDeadline = new TreeSet<>(BY_DEADLINE);
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The tenant named {@code name}, created if it has no works waiting or granted. */
    Tenant tenant(String name) {
        return tenants.computeIfAbsent(name, Tenant::new);
    }

    /** Forgets {@code tenant} once it has nothing waiting and holds no grant. */
    void forgetIfIdle(Tenant tenant) {
        if (tenant.idle()) tenants.remove(tenant.name);
    }

    void add(Waiting w) {
        Tenant tenant = tenant(w.work.tenant());
        tenant.lanes[w.work.priority().ordinal()].waiting.add(w);
        byDeadline.add(w);
        size++;
    }

    /**
     * Removes and returns the work to grant next: of the tenants with waiting work, the one holding the fewest grants
     * (ties to the one whose next work started first), its highest priority, the first in that lane's order.
     */
    Waiting next() {
        Tenant chosen = null;
        Waiting chosenHead = null;
        for (Tenant tenant : tenants.values()) {
            Lane lane = tenant.first();
            if (lane == null) continue;
            Waiting head = lane.waiting.first();
            if (chosen == null || tenant.held < chosen.held
                    || tenant.held == chosen.held && head.work.startNanos() < chosenHead.work.startNanos()) {
                chosen = tenant;
                chosenHead = head;
            }
        }
        if (chosen == null) return null;
        remove(chosen, chosenHead);
        return chosenHead;
    }

    /**
     * Makes room for a work of {@code priority} in a full queue: removes and returns the last in grant order of the
     * lowest priority below it that has waiting works (of the tenant with the most of them), or null if none is lower.
     */
    Waiting evictFor(Priority priority) {
        for (int p = PRIORITIES.length - 1; p > priority.ordinal(); p--) {
            Tenant most = null;
            for (Tenant tenant : tenants.values())
                if (!tenant.lanes[p].waiting.isEmpty() && (most == null || tenant.lanes[p].waiting.size() > most.lanes[p].waiting.size()))
                    most = tenant;
            if (most != null) {
                Waiting last = most.lanes[p].waiting.last();
                remove(most, last);
                return last;
            }
        }
        return null;
    }

    /** Removes every work whose deadline is at or before {@code nowNanos} into {@code expired}. */
    void expire(long nowNanos, List<Waiting> expired) {
        while (!byDeadline.isEmpty() && byDeadline.first().work.deadlineNanos() <= nowNanos) {
            Waiting w = byDeadline.first();
            Tenant tenant = tenants.get(w.work.tenant());
            remove(tenant, w);
            expired.add(w);
            forgetIfIdle(tenant);
        }
    }

    /** Notes that {@code w} waited {@code delayNanos} before its grant. */
    void granted(Waiting w, long delayNanos) {
        Lane lane = tenants.get(w.work.tenant()).lanes[w.work.priority().ordinal()];
        lane.maxDelayNanos = Math.max(lane.maxDelayNanos, delayNanos);
    }

    /**
     * Once an epoch: a lane whose queue delay (the longest wait of a work granted from it since the last call, or of
     * its oldest waiting work) reached {@code thresholdNanos} turns epoch-LIFO; one in LIFO whose delay fell below half
     * of it turns FIFO again.
     */
    void adjustLifo(long nowNanos, long thresholdNanos) {
        for (Tenant tenant : tenants.values()) {
            for (Lane lane : tenant.lanes) {
                long delay = lane.maxDelayNanos;
                if (!lane.waiting.isEmpty()) // the oldest arrival is first in FIFO order and near the end in LIFO
                    delay = Math.max(delay, nowNanos - Math.min(lane.waiting.first().enqueuedNanos, lane.waiting.last().enqueuedNanos));
                lane.maxDelayNanos = 0;
                boolean lifo = lane.lifo ? delay >= thresholdNanos / 2 : delay >= thresholdNanos;
                if (lifo != lane.lifo) {
                    TreeSet<Waiting> reordered = new TreeSet<>(lifo ? EPOCH_LIFO : FIFO);
                    reordered.addAll(lane.waiting);
                    lane.waiting = reordered;
                    lane.lifo = lifo;
                }
            }
        }
    }

    /** How many works of {@code priority} wait, over all tenants. */
    int waiting(Priority priority) {
        int n = 0;
        for (Tenant tenant : tenants.values()) n += tenant.lanes[priority.ordinal()].waiting.size();
        return n;
    }

    /** Whether some tenant's lane of {@code priority} is epoch-LIFO. */
    boolean lifo(Priority priority) {
        for (Tenant tenant : tenants.values()) if (tenant.lanes[priority.ordinal()].lifo) return true;
        return false;
    }

    /** The waiting works, in the order each tenant's lanes would grant them, for tests. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        tenants.values().stream().sorted(Comparator.comparing(t -> t.name)).forEach(tenant -> {
            for (int p = 0; p < PRIORITIES.length; p++) {
                Lane lane = tenant.lanes[p];
                if (lane.waiting.isEmpty() && !lane.lifo) continue;
                StringBuilder line = new StringBuilder(tenant.name).append(' ').append(PRIORITIES[p].label())
                        .append(lane.lifo ? " lifo:" : " fifo:");
                for (Waiting w : lane.waiting) line.append(' ').append(w.requester);
                lines.add(line.toString());
            }
        });
        return lines;
    }

    private void remove(Tenant tenant, Waiting w) {
        tenant.lanes[w.work.priority().ordinal()].waiting.remove(w);
        byDeadline.remove(w);
        size--;
    }
}

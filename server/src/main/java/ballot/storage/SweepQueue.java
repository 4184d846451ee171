package ballot.storage;

import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Partitions that reads found fragmented, waiting for a sweep. Bounded: when full, requests are dropped (the periodic
 * sweep of the whole table catches those partitions later).
 */
final class SweepQueue {
    static final int CAPACITY = 10_000;

    record Request(UUID table, byte[] prefix) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Request r && r.table.equals(table) && Arrays.equals(r.prefix, prefix);
        }

        @Override
        public int hashCode() {
            return table.hashCode() * 31 + Arrays.hashCode(prefix);
        }
    }

    private final Set<Request> pending = ConcurrentHashMap.newKeySet();

    void request(UUID table, byte[] prefix) {
        if (pending.size() < CAPACITY) pending.add(new Request(table, prefix.clone()));
    }

    /** Takes one pending request, or null. */
    Request poll() {
        var it = pending.iterator();
        if (!it.hasNext()) return null;
        Request r = it.next();
        pending.remove(r);
        return r;
    }
}

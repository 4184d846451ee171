package ballot.paxos.acceptor;

import ballot.paxos.PaxosKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An acceptor shell's deferred promises (docs/paxos.md §4.2.5): registers newer than the store's, kept in memory
 * until the partition's next write, oldest first. The shell serves a partition from here while it has an entry, and
 * writes out the oldest once more than {@code max} wait. Lost in a crash, together with every round relying on them.
 * Not thread-safe: each shell confines it to the thread that runs its steps.
 */
public final class DeferredPromises {
    private final int max;
    private final LinkedHashMap<PaxosKey, AcceptorState> byAge = new LinkedHashMap<>();

    public DeferredPromises(int max) {
        if (max < 0) throw new IllegalArgumentException("deferred promises max is " + max + "; must be >= 0");
        this.max = max;
    }

    /** The partition's registers if a promise of it waits here, else null. */
    public AcceptorState get(PaxosKey key) {
        return byAge.get(key);
    }

    /** Keeps {@code state}, a deferrable step's registers, as the partition's newest; it becomes the youngest entry. */
    public void defer(PaxosKey key, AcceptorState state) {
        byAge.remove(key);
        byAge.put(key, state);
    }

    /** A state of the partition at least as new as its deferred one is durable: forget the deferred one. */
    public void durable(PaxosKey key) {
        byAge.remove(key);
    }

    /** With more than {@code max} waiting, the oldest whose partition is not {@code writing}; otherwise null. */
    public Map.Entry<PaxosKey, AcceptorState> overflow(Predicate<PaxosKey> writing) {
        if (byAge.size() <= max) return null;
        for (Map.Entry<PaxosKey, AcceptorState> oldest : byAge.entrySet())
            if (!writing.test(oldest.getKey())) return Map.entry(oldest.getKey(), oldest.getValue());
        return null;
    }
}

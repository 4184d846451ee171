package ballot.paxos.acceptor;

import ballot.paxos.PaxosKey;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An acceptor shell's deferred promises (docs/paxos.md §4.2.5): registers newer than the store's, kept in memory
 * until the partition's next write, oldest first. The shell serves a partition from here while it has an entry, and
 * writes out the oldest once more than {@code max} wait. Lost in a crash, together with every round relying on them.
 * Not thread-safe: each shell confines it to the thread that runs its steps.
 *
 * <p>An entry whose partition has a write in flight is set aside from the age order: that write carries registers at
 * least as new (a partition's steps are sequential), so it need not be written out, and {@link #overflow} finds the
 * oldest entry that may be in O(1) instead of walking past every partition being written (under load, most of them:
 * each LWT's accept follows its deferred promise).
 */
public final class DeferredPromises {
    private final int max;
    /** Entries of partitions with no write in flight, oldest first: what {@link #overflow} may write out. */
    private final LinkedHashMap<PaxosKey, AcceptorState> byAge = new LinkedHashMap<>();
    /** Entries of partitions with a write in flight. */
    private final HashMap<PaxosKey, AcceptorState> writing = new HashMap<>();

    public DeferredPromises(int max) {
        if (max < 0) throw new IllegalArgumentException("deferred promises max is " + max + "; must be >= 0");
        this.max = max;
    }

    /** The partition's registers if a promise of it waits here, else null. */
    public AcceptorState get(PaxosKey key) {
        AcceptorState state = byAge.get(key);
        return state != null ? state : writing.get(key);
    }

    /**
     * Keeps {@code state}, a deferrable step's registers, as the partition's newest; it becomes the youngest entry. The
     * partition has no write in flight (its steps wait for one).
     */
    public void defer(PaxosKey key, AcceptorState state) {
        byAge.remove(key);
        byAge.put(key, state);
    }

    /** A write of the partition starts: its entry, if any, leaves the age order until the write ends. */
    public void writing(PaxosKey key) {
        AcceptorState state = byAge.remove(key);
        if (state != null) writing.put(key, state);
    }

    /** The partition's write failed: its entry, if any, is still owed to its coordinator, and ages again as the youngest. */
    public void notWritten(PaxosKey key) {
        AcceptorState state = writing.remove(key);
        if (state != null) byAge.put(key, state);
    }

    /** A state of the partition at least as new as its deferred one is durable: forget the deferred one. */
    public void durable(PaxosKey key) {
        byAge.remove(key);
        writing.remove(key);
    }

    /** With more than {@code max} waiting in the age order, the oldest; otherwise null. */
    public Map.Entry<PaxosKey, AcceptorState> overflow() {
        if (byAge.size() <= max) return null;
        Map.Entry<PaxosKey, AcceptorState> oldest = byAge.entrySet().iterator().next();
        return Map.entry(oldest.getKey(), oldest.getValue());
    }
}

package ballot.lwt;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A partition's transaction state as Paxos carries it (docs/txn.md §11.1): the encoded state (opaque here; empty when
 * the partition holds none any more, a tombstone that must still outrank older states) and the timestamp of the
 * decree that wrote it. Replicas' reads merge to the newest, and a replica stores a state only over an older one.
 */
public record TxnCell(long timestampMicros, byte[] state) {
    public TxnCell {
        if (state == null) throw new IllegalArgumentException("a transaction state cell needs a state (empty: none)");
    }

    public boolean isEmpty() {
        return state.length == 0;
    }

    /** The newer of two cells (null: none); equal timestamps come from one decree, broken by bytes for determinism. */
    static TxnCell newer(TxnCell a, TxnCell b) {
        if (a == null) return b;
        if (b == null) return a;
        if (a.timestampMicros != b.timestampMicros) return a.timestampMicros > b.timestampMicros ? a : b;
        return Arrays.compareUnsigned(a.state, b.state) >= 0 ? a : b;
    }

    /** Where the state begins in the stored form. */
    public static final int STATE_OFFSET = 8;

    /** The stored form: {@code timestamp(8) · state}. */
    byte[] stored() {
        return ByteBuffer.allocate(STATE_OFFSET + state.length).putLong(timestampMicros).put(state).array();
    }

    public static TxnCell ofStored(byte[] stored) {
        if (stored == null) return null;
        if (stored.length < 8) throw new IllegalArgumentException("a stored transaction state of " + stored.length + " bytes; at least 8 expected");
        return new TxnCell(ByteBuffer.wrap(stored).getLong(), Arrays.copyOfRange(stored, 8, stored.length));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TxnCell other && timestampMicros == other.timestampMicros && Arrays.equals(state, other.state);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timestampMicros) * 31 + Arrays.hashCode(state);
    }

    @Override
    public String toString() {
        return "TxnCell{" + timestampMicros + ", " + state.length + " bytes}";
    }
}

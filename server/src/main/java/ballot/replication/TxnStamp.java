package ballot.replication;

import java.nio.ByteBuffer;
import java.util.function.Predicate;

/**
 * What a replica's answer to a plain read says about a partition's transaction state (docs/txn.md §10): the
 * timestamp of the decree that wrote the state, and whether the state holds an intent. States change only by decrees,
 * whose timestamps are unique and follow the partition's chain, so the newest of the replicas' stamps is the latest
 * state any of them applied.
 */
record TxnStamp(long micros, boolean intent) {
    /** The stamp of a stored state ({@code timestamp(8) · state}); null for none. */
    static TxnStamp of(byte[] stored, Predicate<byte[]> holdsIntent) {
        if (stored == null || stored.length < 8) return null;
        return new TxnStamp(ByteBuffer.wrap(stored).getLong(), holdsIntent.test(stored));
    }

    /** The newer of two stamps (null: none). */
    static TxnStamp newer(TxnStamp a, TxnStamp b) {
        if (a == null) return b;
        if (b == null) return a;
        return b.micros > a.micros ? b : a;
    }
}

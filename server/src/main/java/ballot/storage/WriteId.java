package ballot.storage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Unique identities of writes: {@code timestampMicros(8) · generation(4) · counter(4)}. The generation grows at every
 * start of the node (persisted), so ids never repeat across restarts even if the clock steps back. Storage keys end
 * with the write id, so re-applying the same write overwrites itself: idempotent.
 */
public final class WriteId {
    public static final int BYTES = 16;

    private final int generation;
    private final AtomicInteger counter = new AtomicInteger();

    public WriteId(int generation) {
        this.generation = generation;
    }

    /** A fresh id for a write whose timestamp is {@code timestampMicros}. */
    public byte[] next(long timestampMicros) {
        int n = counter.getAndIncrement();
        byte[] id = new byte[BYTES];
        for (int i = 0; i < 8; i++) id[i] = (byte) (timestampMicros >>> (56 - 8 * i));
        for (int i = 0; i < 4; i++) id[8 + i] = (byte) (generation >>> (24 - 8 * i));
        for (int i = 0; i < 4; i++) id[12 + i] = (byte) (n >>> (24 - 8 * i));
        return id;
    }
}

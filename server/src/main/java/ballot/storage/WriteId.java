package ballot.storage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Unique identities of writes: {@code timestampMicros(8) · generation(4) · counter(4)}. The generation grows at every
 * start of the node (persisted), so ids never repeat across restarts even if the clock steps back. Storage keys end
 * with the write id, so re-applying the same write overwrites itself with the same fragment: idempotent.
 *
 * <p>Generations of writes are never negative. Negative ones are reserved: {@code -1} marks Paxos decree entries
 * (ballot.lwt.RocksPaxosStore), and {@code MERGED | epoch} marks the merged fragments that sweeps and read
 * write-backs put in place of the fragments they read ({@link #forMerges}). No write can therefore rewrite a merged
 * fragment, which holds the data of fragments already deleted (docs/storage.md, "Sweeping").
 */
public final class WriteId {
    public static final int BYTES = 16;
    /** The high bit of a merged fragment's generation; the rest is the storage's open epoch. */
    private static final int MERGED = Integer.MIN_VALUE;

    private final int generation;
    private final AtomicInteger counter = new AtomicInteger();

    public WriteId(int generation) {
        this(generation, false);
        if (generation < 0)
            throw new IllegalArgumentException("write generation is " + generation + "; must be >= 0 (negative ones mark decrees and merges)");
    }

    private WriteId(int generation, boolean merged) {
        this.generation = merged ? MERGED | generation : generation;
    }

    /**
     * Ids of merged fragments for one opening of the storage: {@code epoch} is raised at every open, so the ids of
     * one opening (and, within it, each merge) never repeat another's.
     */
    static WriteId forMerges(long epoch) {
        if (epoch < 1 || epoch >= Integer.MAX_VALUE) // MERGED | MAX_VALUE would be -1, the decrees' generation
            throw new IllegalStateException("storage epoch is " + epoch + "; merged fragment ids need 1 <= epoch < " + Integer.MAX_VALUE);
        return new WriteId((int) epoch, true);
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

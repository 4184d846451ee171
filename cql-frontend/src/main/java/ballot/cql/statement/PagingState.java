package ballot.cql.statement;

import ballot.cql.data.PartitionKey;
import ballot.cql.error.ProtocolException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Where a paged SELECT stopped: the last partition it read from and, if that partition may have more rows, the
 * clustering of the last row consumed (never empty: a partition without clustering columns is done after its row);
 * plus how many rows LIMIT and PER PARTITION LIMIT still allow. Opaque to clients; a state that does not decode is a
 * protocol error.
 * <pre>
 * version(1)=1 · keyLength(2) key · flags(1) [clusteringCount(1) (length(2) value)*] · remaining(4) · remainingInPartition(4)
 * </pre>
 */
record PagingState(PartitionKey partition, ByteBuffer[] clustering, boolean partitionDone, int remaining, int remainingInPartition) {
    PagingState {
        // A page that stopped inside a partition resumes after a row, so it names that row.
        if (!partitionDone && (clustering == null || clustering.length == 0)) {
            throw new IllegalArgumentException("a paging state inside a partition needs the clustering of its last row");
        }
    }

    private static final int VERSION = 1;
    private static final int PARTITION_DONE = 1;
    private static final int HAS_CLUSTERING = 2;

    ByteBuffer encode() {
        ByteBuffer key = partition.key();
        int size = 1 + 2 + key.remaining() + 1 + 8;
        if (clustering != null) {
            size += 1;
            for (ByteBuffer v : clustering) size += 2 + v.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION);
        out.putShort((short) key.remaining()).put(key);
        out.put((byte) ((partitionDone ? PARTITION_DONE : 0) | (clustering != null ? HAS_CLUSTERING : 0)));
        if (clustering != null) {
            out.put((byte) clustering.length);
            for (ByteBuffer v : clustering) out.putShort((short) v.remaining()).put(v.duplicate());
        }
        out.putInt(remaining).putInt(remainingInPartition);
        return out.flip();
    }

    static PagingState decode(ByteBuffer bytes) {
        try {
            ByteBuffer in = bytes.duplicate();
            if (in.get() != VERSION) throw new ProtocolException("Invalid value for the paging state");
            ByteBuffer key = slice(in, in.getShort() & 0xFFFF);
            int flags = in.get();
            ByteBuffer[] clustering = null;
            if ((flags & HAS_CLUSTERING) != 0) {
                clustering = new ByteBuffer[in.get() & 0xFF];
                for (int i = 0; i < clustering.length; i++) clustering[i] = slice(in, in.getShort() & 0xFFFF);
            }
            int remaining = in.getInt();
            int remainingInPartition = in.getInt();
            if (in.hasRemaining() || remaining < 0 || remainingInPartition < 0) {
                throw new ProtocolException("Invalid value for the paging state");
            }
            return new PagingState(PartitionKey.of(key), clustering, (flags & PARTITION_DONE) != 0, remaining, remainingInPartition);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new ProtocolException("Invalid value for the paging state");
        }
    }

    private static ByteBuffer slice(ByteBuffer in, int length) {
        ByteBuffer s = in.slice();
        s.limit(length);
        in.position(in.position() + length);
        return s;
    }
}

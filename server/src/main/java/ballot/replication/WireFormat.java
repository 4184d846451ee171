package ballot.replication;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.storage.DataCodec;
import ballot.storage.Mutation;
import ballot.storage.WriteId;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The internode form of the replication verbs' data: mutations, partitions, read specs and token ranges, built from
 * the shared parts of {@link DataCodec}. Decoding checks lengths and fails on malformed input.
 * <pre>
 * update    = tableId(16) · sized key · content          mutation = writeId(16) · update
 * partition = sized key · content                        readSpec = count(4) · slice* · reversed(1) · rowLimit(4) · partitionRowLimit(4) · nowInSec(4)
 * range     = start(8) · hasAfter(1) [sized key] · end(8)
 * </pre>
 */
final class WireFormat {
    private WireFormat() {}

    static void writeKey(ByteBuf out, PartitionKey key) {
        DataCodec.writeSized(out, key.key());
    }

    static PartitionKey readKey(ByteBuf in) {
        var key = DataCodec.readSized(in);
        if (key == null) throw new IllegalArgumentException("missing partition key");
        return PartitionKey.of(key);
    }

    static void writeUpdate(ByteBuf out, PartitionUpdate u) {
        DataCodec.writeUuid(out, u.tableId());
        writeKey(out, u.key());
        DataCodec.writeContent(out, u.partitionDeletion(), u.rangeTombstones(), u.staticRow(), u.rows());
    }

    static PartitionUpdate readUpdate(ByteBuf in) {
        UUID table = DataCodec.readUuid(in);
        PartitionKey key = readKey(in);
        DataCodec.Content c = DataCodec.readContent(in);
        return new PartitionUpdate(table, key, c.deletion(), c.rangeTombstones(), c.staticRow(), c.rows());
    }

    static void writeMutation(ByteBuf out, Mutation m) {
        out.writeBytes(m.writeId());
        writeUpdate(out, m.update());
    }

    static Mutation readMutation(ByteBuf in) {
        DataCodec.need(in, WriteId.BYTES, "write id");
        byte[] id = new byte[WriteId.BYTES];
        in.readBytes(id);
        return new Mutation(readUpdate(in), id);
    }

    static void writePartition(ByteBuf out, PartitionData p) {
        writeKey(out, p.key());
        DataCodec.writeContent(out, p.partitionDeletion(), p.rangeTombstones(), p.staticRow(), p.rows());
    }

    static PartitionData readPartition(ByteBuf in) {
        PartitionKey key = readKey(in);
        DataCodec.Content c = DataCodec.readContent(in);
        return new PartitionData(key, c.deletion(), c.rangeTombstones(), c.staticRow(), c.rows());
    }

    static void writeReadSpec(ByteBuf out, ReadSpec spec) {
        out.writeInt(spec.slices().size());
        for (Slice s : spec.slices()) DataCodec.writeSlice(out, s);
        out.writeBoolean(spec.reversed());
        out.writeInt(spec.rowLimit()).writeInt(spec.partitionRowLimit()).writeInt(spec.nowInSec());
    }

    static ReadSpec readReadSpec(ByteBuf in) {
        int n = DataCodec.readCount(in);
        List<Slice> slices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) slices.add(DataCodec.readSlice(in));
        DataCodec.need(in, 13, "read spec");
        boolean reversed = in.readBoolean();
        return new ReadSpec(slices, reversed, in.readInt(), in.readInt(), in.readInt());
    }

    static void writeRange(ByteBuf out, TokenRange range) {
        out.writeLong(range.start());
        out.writeBoolean(range.startAfter() != null);
        if (range.startAfter() != null) writeKey(out, range.startAfter());
        out.writeLong(range.end());
    }

    static TokenRange readRange(ByteBuf in) {
        DataCodec.need(in, 9, "token range");
        long start = in.readLong();
        PartitionKey after = in.readBoolean() ? readKey(in) : null;
        DataCodec.need(in, 8, "token range end");
        return new TokenRange(start, after, in.readLong());
    }
}

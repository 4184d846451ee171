package ballot.replication;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TokenRange;
import ballot.cql.index.IndexExpression;
import ballot.net.Codec;
import ballot.net.Codecs;
import ballot.net.Verb;
import ballot.storage.DataCodec;
import ballot.storage.Mutation;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The internode requests of the read and write paths. Ids 100–199 belong to replication. */
final class ReplicationVerbs {
    /** Read one partition; {@code digestOnly} asks for the MD5 of the answer instead of the data. */
    record ReadCommand(UUID table, PartitionKey key, ReadSpec spec, boolean digestOnly) {}

    /** Data, or a digest of it; and the partition's transaction state's stamp, if the replica stores one (docs/txn.md §10). */
    record ReadResponse(PartitionData data, byte[] digest, TxnStamp txn) {}

    /** {@code deadMax}: how many partitions without live data the answer may carry ({@link ballot.storage.StorageEngine#scan}). */
    record ScanCommand(UUID table, TokenRange range, ReadSpec spec, int partitionLimit, int deadMax) {}

    /** The partitions of a scan, and the stamps of those with a transaction state (docs/txn.md §10). */
    record ScanResponse(List<PartitionData> partitions, Map<PartitionKey, TxnStamp> txn) {}

    /** An index query over a token range (docs/indexes.md): {@code used} lists every index the query relies on. */
    record IndexScanCommand(UUID table, IndexExpression expression, List<String> used, TokenRange range, ReadSpec spec,
            int partitionLimit) {}

    /**
     * The matching partitions, or (when an index the query uses is still building here) that it is not available; and
     * the partitions of the range held by a transaction's intent when the query began, whose writes it may lack.
     */
    record IndexScanResponse(List<PartitionData> partitions, boolean available, List<PartitionKey> held) {}

    /** Counter increments for the leader replica to turn into its shards and replicate at {@code consistency}. */
    record CounterCommand(PartitionUpdate update, int consistencyCode) {}

    private ReplicationVerbs() {}

    static final Codec<List<Mutation>> MUTATIONS = new Codec<>() {
        public void encode(List<Mutation> value, ByteBuf out) {
            out.writeInt(value.size());
            for (Mutation m : value) WireFormat.writeMutation(out, m);
        }

        public List<Mutation> decode(ByteBuf in) {
            int n = DataCodec.readCount(in);
            List<Mutation> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) out.add(WireFormat.readMutation(in));
            return out;
        }
    };

    static final Codec<ReadCommand> READ_COMMAND = new Codec<>() {
        public void encode(ReadCommand value, ByteBuf out) {
            DataCodec.writeUuid(out, value.table());
            WireFormat.writeKey(out, value.key());
            WireFormat.writeReadSpec(out, value.spec());
            out.writeBoolean(value.digestOnly());
        }

        public ReadCommand decode(ByteBuf in) {
            return new ReadCommand(DataCodec.readUuid(in), WireFormat.readKey(in), WireFormat.readReadSpec(in), in.readBoolean());
        }
    };

    static final Codec<ReadResponse> READ_RESPONSE = new Codec<>() {
        public void encode(ReadResponse value, ByteBuf out) {
            out.writeBoolean(value.data() != null);
            if (value.data() != null) WireFormat.writePartition(out, value.data());
            else out.writeInt(value.digest().length).writeBytes(value.digest());
            writeStamp(out, value.txn());
        }

        public ReadResponse decode(ByteBuf in) {
            PartitionData data = null;
            byte[] digest = null;
            if (in.readBoolean()) {
                data = WireFormat.readPartition(in);
            } else {
                digest = new byte[DataCodec.readCount(in)];
                in.readBytes(digest);
            }
            return new ReadResponse(data, digest, readStamp(in));
        }
    };

    private static void writeStamp(ByteBuf out, TxnStamp stamp) {
        out.writeBoolean(stamp != null);
        if (stamp != null) out.writeLong(stamp.micros()).writeBoolean(stamp.intent());
    }

    private static TxnStamp readStamp(ByteBuf in) {
        return in.readBoolean() ? new TxnStamp(in.readLong(), in.readBoolean()) : null;
    }

    static final Codec<ScanCommand> SCAN_COMMAND = new Codec<>() {
        public void encode(ScanCommand value, ByteBuf out) {
            DataCodec.writeUuid(out, value.table());
            WireFormat.writeRange(out, value.range());
            WireFormat.writeReadSpec(out, value.spec());
            out.writeInt(value.partitionLimit());
            out.writeInt(value.deadMax());
        }

        public ScanCommand decode(ByteBuf in) {
            return new ScanCommand(DataCodec.readUuid(in), WireFormat.readRange(in), WireFormat.readReadSpec(in), in.readInt(),
                    in.readInt());
        }
    };

    static final Codec<ScanResponse> SCAN_RESPONSE = new Codec<>() {
        public void encode(ScanResponse value, ByteBuf out) {
            PARTITIONS.encode(value.partitions(), out);
            out.writeInt(value.txn().size());
            for (Map.Entry<PartitionKey, TxnStamp> e : value.txn().entrySet()) {
                WireFormat.writeKey(out, e.getKey());
                writeStamp(out, e.getValue());
            }
        }

        public ScanResponse decode(ByteBuf in) {
            List<PartitionData> partitions = PARTITIONS.decode(in);
            int n = DataCodec.readCount(in);
            Map<PartitionKey, TxnStamp> txn = n == 0 ? Map.of() : new HashMap<>(n * 2);
            for (int i = 0; i < n; i++) txn.put(WireFormat.readKey(in), readStamp(in));
            return new ScanResponse(partitions, txn);
        }
    };

    static final Codec<List<PartitionData>> PARTITIONS = new Codec<>() {
        public void encode(List<PartitionData> value, ByteBuf out) {
            out.writeInt(value.size());
            for (PartitionData p : value) WireFormat.writePartition(out, p);
        }

        public List<PartitionData> decode(ByteBuf in) {
            int n = DataCodec.readCount(in);
            List<PartitionData> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) out.add(WireFormat.readPartition(in));
            return out;
        }
    };

    static final Codec<IndexScanCommand> INDEX_SCAN_COMMAND = new Codec<>() {
        public void encode(IndexScanCommand value, ByteBuf out) {
            DataCodec.writeUuid(out, value.table());
            IndexExpression e = value.expression();
            Codecs.writeShortString(out, e.index());
            writeBound(out, e.lower(), e.lowerInclusive());
            writeBound(out, e.upper(), e.upperInclusive());
            out.writeInt(value.used().size());
            for (String index : value.used()) Codecs.writeShortString(out, index);
            WireFormat.writeRange(out, value.range());
            WireFormat.writeReadSpec(out, value.spec());
            out.writeInt(value.partitionLimit());
        }

        public IndexScanCommand decode(ByteBuf in) {
            UUID table = DataCodec.readUuid(in);
            String index = Codecs.readShortString(in);
            byte[] lower = readBound(in);
            boolean lowerInclusive = in.readBoolean();
            byte[] upper = readBound(in);
            boolean upperInclusive = in.readBoolean();
            int n = DataCodec.readCount(in);
            List<String> used = new ArrayList<>(n);
            for (int i = 0; i < n; i++) used.add(Codecs.readShortString(in));
            return new IndexScanCommand(table, new IndexExpression(index, lower, lowerInclusive, upper, upperInclusive), used,
                    WireFormat.readRange(in), WireFormat.readReadSpec(in), in.readInt());
        }

        private void writeBound(ByteBuf out, byte[] bound, boolean inclusive) {
            DataCodec.writeSized(out, bound == null ? null : java.nio.ByteBuffer.wrap(bound));
            out.writeBoolean(inclusive);
        }

        private byte[] readBound(ByteBuf in) {
            java.nio.ByteBuffer bound = DataCodec.readSized(in);
            return bound == null ? null : bound.array();
        }
    };

    static final Codec<IndexScanResponse> INDEX_SCAN_RESPONSE = new Codec<>() {
        public void encode(IndexScanResponse value, ByteBuf out) {
            out.writeBoolean(value.available());
            PARTITIONS.encode(value.partitions(), out);
            out.writeInt(value.held().size());
            for (PartitionKey key : value.held()) WireFormat.writeKey(out, key);
        }

        public IndexScanResponse decode(ByteBuf in) {
            boolean available = in.readBoolean();
            List<PartitionData> partitions = PARTITIONS.decode(in);
            int n = DataCodec.readCount(in);
            List<PartitionKey> held = new ArrayList<>(n);
            for (int i = 0; i < n; i++) held.add(WireFormat.readKey(in));
            return new IndexScanResponse(partitions, available, held);
        }
    };

    static final Codec<UUID> TABLE_ID = new Codec<>() {
        public void encode(UUID value, ByteBuf out) {
            DataCodec.writeUuid(out, value);
        }

        public UUID decode(ByteBuf in) {
            return DataCodec.readUuid(in);
        }
    };

    static final Codec<CounterCommand> COUNTER_COMMAND = new Codec<>() {
        public void encode(CounterCommand value, ByteBuf out) {
            WireFormat.writeUpdate(out, value.update());
            out.writeShort(value.consistencyCode());
        }

        public CounterCommand decode(ByteBuf in) {
            return new CounterCommand(WireFormat.readUpdate(in), in.readShort());
        }
    };

    static final Verb<List<Mutation>, Void> MUTATION = new Verb<>(100, "MUTATION", MUTATIONS, Codecs.EMPTY);
    static final Verb<ReadCommand, ReadResponse> READ = new Verb<>(101, "READ", READ_COMMAND, READ_RESPONSE);
    static final Verb<ScanCommand, ScanResponse> SCAN = new Verb<>(102, "SCAN", SCAN_COMMAND, SCAN_RESPONSE);
    static final Verb<UUID, Void> TRUNCATE = new Verb<>(103, "TRUNCATE", TABLE_ID, Codecs.EMPTY);
    static final Verb<CounterCommand, Void> COUNTER_LEADER = new Verb<>(104, "COUNTER_LEADER", COUNTER_COMMAND, Codecs.EMPTY);
    static final Verb<IndexScanCommand, IndexScanResponse> INDEX_SCAN = new Verb<>(105, "INDEX_SCAN", INDEX_SCAN_COMMAND, INDEX_SCAN_RESPONSE);
}

package ballot.cql.protocol.message;

import static ballot.cql.protocol.Primitives.readInt;
import static ballot.cql.protocol.Primitives.readString;

import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Primitives;
import ballot.cql.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** RESULT bodies (native_protocol_v5.spec §4.2.5): an [int] kind, then the kind's body. */
final class ResultCodec {
    // <metadata> flags
    private static final int GLOBAL_TABLES_SPEC = 0x0001;
    private static final int HAS_MORE_PAGES = 0x0002;
    private static final int NO_METADATA = 0x0004;
    private static final int METADATA_CHANGED = 0x0008;

    private ResultCodec() {}

    static void encode(Result result, ProtocolVersion version, ByteBuf out) {
        out.writeInt(result.kind());
        if (result instanceof Rows rows) {
            encodeRowsMetadata(rows.metadata(), version, out);
            out.writeInt(rows.rows().size());
            for (ByteBuffer[] row : rows.rows())
                for (ByteBuffer value : row) Primitives.writeBytes(value, out);
        } else if (result instanceof SetKeyspace s) {
            Primitives.writeString(s.keyspace(), out);
        } else if (result instanceof Prepared p) {
            Primitives.writeShortBytes(p.statementId(), out);
            if (version.isAtLeast(ProtocolVersion.V5)) Primitives.writeShortBytes(p.resultMetadataId(), out);
            encodePreparedMetadata(p.variables(), version, out);
            encodeRowsMetadata(p.resultMetadata(), version, out);
        } else if (result instanceof SchemaChange c) {
            EventCodec.encodeSchemaChange(c, version, out);
        }
    }

    private static void encodeRowsMetadata(RowsMetadata m, ProtocolVersion version, ByteBuf out) {
        boolean changed = m.newMetadataId() != null && version.isAtLeast(ProtocolVersion.V5);
        boolean global = isSingleTable(m.columns());
        int flags = (global ? GLOBAL_TABLES_SPEC : 0) | (m.pagingState() != null ? HAS_MORE_PAGES : 0)
                | (m.noMetadata() ? NO_METADATA : 0) | (changed ? METADATA_CHANGED : 0);
        out.writeInt(flags);
        out.writeInt(m.columnCount());
        if (m.pagingState() != null) Primitives.writeBytes(m.pagingState(), out);
        if (changed) Primitives.writeShortBytes(m.newMetadataId(), out);
        if (!m.noMetadata()) encodeColumnSpecs(m.columns(), global, version, out);
    }

    private static void encodePreparedMetadata(PreparedMetadata m, ProtocolVersion version, ByteBuf out) {
        boolean global = isSingleTable(m.variables());
        out.writeInt((global ? GLOBAL_TABLES_SPEC : 0) | (m.lwt() ? PreparedMetadata.LWT_FLAG : 0));
        out.writeInt(m.variables().size());
        if (version.isAtLeast(ProtocolVersion.V4)) {
            // Key indexes are sent only when every marker is of one table, as Cassandra sends them.
            List<Integer> keyIndexes = global ? m.partitionKeyIndexes() : List.of();
            out.writeInt(keyIndexes.size());
            for (int index : keyIndexes) out.writeShort(index);
        }
        encodeColumnSpecs(m.variables(), global, version, out);
    }

    private static void encodeColumnSpecs(List<ColumnSpec> columns, boolean global, ProtocolVersion version, ByteBuf out) {
        if (global) {
            Primitives.writeString(columns.get(0).keyspace(), out);
            Primitives.writeString(columns.get(0).table(), out);
        }
        for (ColumnSpec c : columns) {
            if (!global) {
                Primitives.writeString(c.keyspace(), out);
                Primitives.writeString(c.table(), out);
            }
            Primitives.writeString(c.name(), out);
            c.type().writeTypeOption(out, version.code());
        }
    }

    private static boolean isSingleTable(List<ColumnSpec> columns) {
        if (columns.isEmpty()) return false;
        ColumnSpec first = columns.get(0);
        for (ColumnSpec c : columns)
            if (!c.keyspace().equals(first.keyspace()) || !c.table().equals(first.table())) return false;
        return true;
    }

    static Result decode(ByteBuf in, ProtocolVersion version, TypeOptionDecoder types) {
        int kind = readInt(in, "result kind");
        switch (kind) {
            case 0x0001:
                return new VoidResult();
            case 0x0002: {
                RowsMetadata metadata = decodeRowsMetadata(in, version, types);
                int count = readInt(in, "row count");
                List<ByteBuffer[]> rows = new ArrayList<>();
                for (int r = 0; r < count; r++) {
                    ByteBuffer[] row = new ByteBuffer[metadata.columnCount()];
                    for (int c = 0; c < row.length; c++) row[c] = Primitives.readBytes(in, "row value");
                    rows.add(row);
                }
                return new Rows(metadata, rows);
            }
            case 0x0003:
                return new SetKeyspace(readString(in, "keyspace"));
            case 0x0004: {
                ByteBuffer id = Primitives.readShortBytes(in, "prepared id");
                ByteBuffer resultMetadataId = version.isAtLeast(ProtocolVersion.V5)
                        ? Primitives.readShortBytes(in, "result metadata id") : ByteBuffer.allocate(0);
                PreparedMetadata variables = decodePreparedMetadata(in, version, types);
                return new Prepared(id, resultMetadataId, variables, decodeRowsMetadata(in, version, types));
            }
            case 0x0005:
                return EventCodec.decodeSchemaChange(in, version);
            default:
                throw new ProtocolException("Unknown result kind " + kind);
        }
    }

    private static RowsMetadata decodeRowsMetadata(ByteBuf in, ProtocolVersion version, TypeOptionDecoder types) {
        int flags = readInt(in, "metadata flags");
        int columnCount = readInt(in, "column count");
        ByteBuffer pagingState = (flags & HAS_MORE_PAGES) != 0 ? Primitives.readBytes(in, "paging state") : null;
        ByteBuffer newId = (flags & METADATA_CHANGED) != 0 ? Primitives.readShortBytes(in, "new metadata id") : null;
        if ((flags & NO_METADATA) != 0) return new RowsMetadata(columnCount, List.of(), true, pagingState, null);
        List<ColumnSpec> columns = decodeColumnSpecs(in, columnCount, (flags & GLOBAL_TABLES_SPEC) != 0, types);
        return new RowsMetadata(columnCount, columns, false, pagingState, newId);
    }

    private static PreparedMetadata decodePreparedMetadata(ByteBuf in, ProtocolVersion version, TypeOptionDecoder types) {
        int flags = readInt(in, "prepared metadata flags");
        int count = readInt(in, "marker count");
        List<Integer> pkIndexes = new ArrayList<>();
        if (version.isAtLeast(ProtocolVersion.V4)) {
            int pkCount = readInt(in, "partition key count");
            for (int i = 0; i < pkCount; i++) pkIndexes.add(Primitives.readUnsignedShort(in, "partition key index"));
        }
        return new PreparedMetadata(decodeColumnSpecs(in, count, (flags & GLOBAL_TABLES_SPEC) != 0, types), pkIndexes,
                (flags & PreparedMetadata.LWT_FLAG) != 0);
    }

    private static List<ColumnSpec> decodeColumnSpecs(ByteBuf in, int count, boolean global, TypeOptionDecoder types) {
        String keyspace = global ? readString(in, "global keyspace") : null;
        String table = global ? readString(in, "global table") : null;
        List<ColumnSpec> columns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String ks = global ? keyspace : readString(in, "keyspace");
            String t = global ? table : readString(in, "table");
            columns.add(new ColumnSpec(ks, t, readString(in, "column name"), types.read(in)));
        }
        return columns;
    }
}

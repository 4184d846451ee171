package ballot.tools.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A partition key typed by the user, as the bytes the node keys partitions by: one column's value serialized, or for a
 * composite key each component as {@code length(2) · bytes · 0} (Cassandra's CompositeType, which system.paxos's
 * row_key holds).
 */
final class PartitionKeys {
    private PartitionKeys() {}

    /** @param literal the value(s) of the partition key columns, ':' between components; text needs no quotes */
    static ByteBuffer encode(CqlSession session, TableMetadata table, String literal) {
        List<ColumnMetadata> columns = table.getPartitionKey();
        String[] parts = columns.size() == 1 ? new String[] {literal} : literal.split(":", -1);
        if (parts.length != columns.size())
            throw new AdminCli.Failure("the partition key of " + table.getName() + " has " + columns.size() + " components; got " + parts.length
                    + " in '" + literal + "' (separate them with ':')");
        List<ByteBuffer> values = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) values.add(value(session, columns.get(i), parts[i]));
        if (values.size() == 1) return values.get(0);
        int size = 0;
        for (ByteBuffer v : values) size += 3 + v.remaining();
        ByteBuffer composite = ByteBuffer.allocate(size);
        for (ByteBuffer v : values) composite.putShort((short) v.remaining()).put(v.duplicate()).put((byte) 0);
        return composite.flip();
    }

    private static ByteBuffer value(CqlSession session, ColumnMetadata column, String literal) {
        TypeCodec<Object> codec = session.getContext().getCodecRegistry().codecFor(column.getType());
        boolean text = column.getType().equals(DataTypes.TEXT) || column.getType().equals(DataTypes.ASCII);
        Object value;
        try {
            value = text ? literal : codec.parse(literal);
        } catch (IllegalArgumentException e) {
            throw new AdminCli.Failure("'" + literal + "' is not a " + column.getType().asCql(false, true) + " for column " + column.getName()
                    + ": " + e.getMessage());
        }
        return codec.encode(value, ProtocolVersion.DEFAULT);
    }
}

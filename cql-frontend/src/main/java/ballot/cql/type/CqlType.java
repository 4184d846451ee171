package ballot.cql.type;

import io.netty.buffer.ByteBuf;

/**
 * A CQL data type. Values travel and are stored in their native-protocol serialized form
 * ({@link java.nio.ByteBuffer}); this class is the single authority on that form.
 */
public abstract class CqlType {
    /** The type as CQL writes it and as {@code system_schema.columns.type} stores it, e.g. {@code frozen<map<text, int>>}. */
    public abstract String cqlName();

    /** True for a non-frozen collection or UDT, whose elements are stored as separate cells. */
    public abstract boolean isMultiCell();

    /** Writes this type as a native-protocol {@code [option]} (native_protocol_v4.spec §4.2.5.2). */
    public abstract void writeTypeOption(ByteBuf out);
}

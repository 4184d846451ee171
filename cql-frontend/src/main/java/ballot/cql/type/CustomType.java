package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * A type that CQL names only by its Cassandra marshal class ({@code 'org.apache.cassandra.db.marshal.LexicalUUIDType'}),
 * as Cassandra's {@code CQL3Type.Custom}: its CQL name is the quoted class, it travels as the custom type option
 * (id 0x0000 and the class), CQL literals of it are blobs ({@code 0x...}), and any constant may be assigned to it: a hex
 * constant gives its bytes, any other constant is read by the class's {@link #fromString}. Java form: a read-only
 * {@code ByteBuffer}, as for blob. Class names that are native CQL types never become a {@code CustomType}.
 */
abstract class CustomType extends CqlType {
    static final String MARSHAL_PACKAGE = "org.apache.cassandra.db.marshal.";

    private final String className;

    /** @param className the full class with parameters, as Cassandra's {@code AbstractType.toString()} writes it */
    CustomType(String className) {
        this.className = className;
    }

    @Override
    public final Kind kind() {
        return Kind.CUSTOM;
    }

    @Override
    public final String cqlName() {
        return "'" + className + "'";
    }

    @Override
    public final boolean isMultiCell() {
        return false;
    }

    @Override
    public final void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0x0000);
        NativeType.writeString(out, className);
    }

    @Override
    final String marshalName(boolean ignoreFreezing) {
        return className;
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    public final Object compose(ByteBuffer value) {
        if (value == null)
            return null;
        validate(value);
        return Buffers.copy(value).asReadOnlyBuffer();
    }

    @Override
    public final ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        ByteBuffer bytes;
        if (value instanceof ByteBuffer buffer)
            bytes = Buffers.copy(buffer);
        else if (value instanceof byte[] array)
            bytes = ByteBuffer.wrap(array.clone());
        else
            throw new InvalidRequestException("Expected a ByteBuffer or byte[] for " + cqlName() + ", got "
                    + value.getClass().getSimpleName());
        validate(bytes);
        return bytes;
    }

    /** Cassandra skips type checking of constants for custom receivers: every kind is (weakly) assignable. */
    @Override
    public final boolean accepts(ConstantKind kind) {
        return true;
    }

    @Override
    final ByteBuffer parseConstant(ConstantKind kind, String text) {
        if (kind != ConstantKind.HEX)
            return fromString(text);
        ByteBuffer bytes = CqlTypes.BLOB.fromString(text.substring(2));
        validate(bytes);
        return bytes;
    }

    @Override
    public final String toCqlLiteral(ByteBuffer value) {
        return CqlTypes.BLOB.toCqlLiteral(value);
    }

    @Override
    public final String toJson(ByteBuffer value) {
        return value == null ? "null" : Json.quote(asString(value));
    }

    @Override
    public final ByteBuffer fromJson(Object parsed) {
        if (parsed == null)
            return null;
        if (!(parsed instanceof String))
            throw new InvalidRequestException("Expected a string representation of " + className + ", but got a "
                    + Json.describe(parsed));
        return fromString((String) parsed);
    }

    @Override
    public final boolean equals(Object o) {
        return o instanceof CustomType other && other.className.equals(className);
    }

    @Override
    public final int hashCode() {
        return className.hashCode();
    }
}

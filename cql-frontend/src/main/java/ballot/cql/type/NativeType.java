package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A built-in scalar type, one shared instance each (see {@link CqlTypes}). Handles what empty values and type options
 * have in common; subclasses handle non-empty values. In a comparable encoding a type that allows empty values writes
 * {@code 00} for empty and {@code 01} before the encoding of anything else, so empty sorts first.
 */
abstract class NativeType extends CqlType {
    private static final String MARSHAL_PACKAGE = "org.apache.cassandra.db.marshal.";

    private final Kind kind;
    private final String name;
    private final int optionId;
    private final String marshalClass;

    NativeType(Kind kind, String name, int optionId, String marshalClass) {
        this.kind = kind;
        this.name = name;
        this.optionId = optionId;
        this.marshalClass = MARSHAL_PACKAGE + marshalClass;
    }

    @Override
    public final Kind kind() {
        return kind;
    }

    @Override
    public final String cqlName() {
        return name;
    }

    @Override
    public final boolean isMultiCell() {
        return false;
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(optionId);
    }

    @Override
    final String marshalName(boolean ignoreFreezing) {
        return marshalClass;
    }

    /** Writes the custom-type option (id 0x0000) naming this type's marshal class. */
    final void writeCustomOption(ByteBuf out) {
        out.writeShort(0);
        writeString(out, marshalClass);
    }

    static void writeString(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    // ---------------------------------------------------------------- values

    @Override
    public final void validate(ByteBuffer value) {
        if (!value.hasRemaining()) {
            if (!allowsEmpty())
                validateNonEmpty(value); // reports the size error in the type's own words
            return;
        }
        validateNonEmpty(value);
    }

    /** Validates a value; called with an empty buffer only for types that reject empty values. */
    abstract void validateNonEmpty(ByteBuffer value);

    @Override
    public final Object compose(ByteBuffer value) {
        if (value == null)
            return null;
        validate(value);
        return value.hasRemaining() ? composeNonEmpty(value) : composeEmpty();
    }

    Object composeEmpty() {
        return null;
    }

    abstract Object composeNonEmpty(ByteBuffer value);

    @Override
    public final int compare(ByteBuffer left, ByteBuffer right) {
        if (!left.hasRemaining() || !right.hasRemaining())
            return Boolean.compare(!right.hasRemaining(), !left.hasRemaining());
        return compareNonEmpty(left, right);
    }

    abstract int compareNonEmpty(ByteBuffer left, ByteBuffer right);

    @Override
    public void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        if (!isAllowedInPrimaryKey())
            throw new InvalidRequestException("Values of type " + name + " cannot be part of a primary key");
        validate(value);
        if (allowsEmpty()) {
            if (!value.hasRemaining()) {
                out.write(0);
                return;
            }
            out.write(1);
        }
        encodeNonEmpty(value, out);
    }

    @Override
    public ByteBuffer decodeComparable(ComparableBytesReader in) {
        if (!isAllowedInPrimaryKey())
            throw new IllegalArgumentException("type " + name + " has no comparable encoding");
        if (allowsEmpty()) {
            int marker = in.read();
            if (marker == 0)
                return Buffers.empty();
            if (marker != 1)
                throw in.malformed("bad presence byte " + marker + " for " + name);
        }
        return decodeNonEmpty(in);
    }

    /** Encodes a valid non-empty value. Throws for types outside primary keys. */
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        throw new UnsupportedOperationException(name);
    }

    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        throw new UnsupportedOperationException(name);
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        validate(value);
        return value;
    }

    /** True unless a type overrides {@link #canonical} with a form of its own (decimal, varint, boolean, float, double). */
    @Override
    public boolean hasOneForm() {
        return true;
    }

    // ---------------------------------------------------------------- text and JSON

    @Override
    public String asString(ByteBuffer value) {
        validate(value);
        return value.hasRemaining() ? asStringNonEmpty(value) : "";
    }

    abstract String asStringNonEmpty(ByteBuffer value);

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null)
            return "null";
        validate(value);
        if (!value.hasRemaining())
            return emptyLiteral();
        String text = asStringNonEmpty(value);
        return quotesLiterals() ? quote(text) : text;
    }

    /** The literal for an empty value: {@code null} for types where empty means nothing. */
    String emptyLiteral() {
        return "null";
    }

    /** True for types whose literals are single-quoted strings (text, inet, date, time, timestamp). */
    boolean quotesLiterals() {
        return false;
    }

    static String quote(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }

    @Override
    public String toJson(ByteBuffer value) {
        if (value == null)
            return "null";
        validate(value);
        return value.hasRemaining() ? toJsonNonEmpty(value) : "\"\"";
    }

    /** JSON for a non-empty value: the literal text, quoted as a JSON string where CQL quotes it. */
    String toJsonNonEmpty(ByteBuffer value) {
        String text = asStringNonEmpty(value);
        return quotesLiterals() ? Json.quote(text) : text;
    }

    @Override
    public final ByteBuffer fromJson(Object parsed) {
        return parsed == null ? null : fromJsonNonNull(parsed);
    }

    abstract ByteBuffer fromJsonNonNull(Object parsed);

    static InvalidRequestException invalid(String format, Object... args) {
        return new InvalidRequestException(String.format(format, args));
    }

    /** Native types are equal by kind: a timestamp type with an injected clock equals {@link CqlTypes#TIMESTAMP}. */
    @Override
    public final boolean equals(Object o) {
        return o instanceof NativeType && ((NativeType) o).kind == kind;
    }

    @Override
    public final int hashCode() {
        return kind.hashCode();
    }
}

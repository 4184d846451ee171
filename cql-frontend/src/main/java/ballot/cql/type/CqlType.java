package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * A CQL data type. Values travel and are stored in their native-protocol serialized form
 * ({@link java.nio.ByteBuffer}); this class is the single authority on that form.
 *
 * <p>A value is {@code null} (CQL null, no bytes at all), empty (a zero-length buffer, legal only where
 * {@link #allowsEmpty()}, and distinct from null), or a full serialization. Methods never move the position of the
 * buffers they are given; buffers they return are fresh heap buffers. Bad values raise
 * {@link InvalidRequestException} with Cassandra's wording.
 *
 * <p>Ordering: {@link #compare} is Cassandra's comparator, empty values first. {@link #encodeComparable} maps a value
 * to bytes whose unsigned lexicographic order is {@code compare}'s order and no encoding is a prefix of another, so a
 * clustering key is the concatenation of its components' encodings and a DESC component is its encoding with every
 * bit inverted. {@code decodeComparable(encodeComparable(v))} is {@link #canonical canonical(v)}, byte for byte;
 * that is {@code v} itself for values this package produces (literals, JSON, {@code decompose}, {@code pack}), except
 * decimals with trailing zeros ({@code 1.50} decodes as {@code 1.5}, which compares equal). Sets and maps must be in
 * element order, as {@code pack} leaves them; normalize client-sent sets and maps with {@link #normalized}.
 */
public abstract class CqlType {
    /** What a type is, for code that must switch on it. */
    public enum Kind {
        ASCII, BIGINT, BLOB, BOOLEAN, COUNTER, DATE, DECIMAL, DOUBLE, DURATION, FLOAT, INET, INT, SMALLINT, TEXT,
        TIME, TIMESTAMP, TIMEUUID, TINYINT, UUID, VARINT, LIST, SET, MAP, TUPLE, UDT, VECTOR,
        /** A type CQL names only by its Cassandra marshal class, e.g. {@code 'org.apache.cassandra.db.marshal.LexicalUUIDType'}. */
        CUSTOM
    }

    /** The newest native protocol version; {@link #writeTypeOption(ByteBuf)} writes for it. */
    public static final int LATEST_PROTOCOL_VERSION = 5;

    CqlType() {
        // the set of types is closed: every subclass lives in this package
    }

    public abstract Kind kind();

    /** The type as CQL writes it and as {@code system_schema.columns.type} stores it, e.g. {@code frozen<map<text, int>>}. */
    public abstract String cqlName();

    /** True for a non-frozen collection or UDT, whose elements are stored as separate cells. */
    public abstract boolean isMultiCell();

    /** True for a list, set or map, frozen or not. */
    public final boolean isCollection() {
        return this instanceof CollectionType;
    }

    /** Writes this type as a native-protocol {@code [option]} (native_protocol_v4.spec §4.2.5.2) for protocol v5. */
    public void writeTypeOption(ByteBuf out) {
        writeTypeOption(out, LATEST_PROTOCOL_VERSION);
    }

    /**
     * Writes this type as an {@code [option]} for the given protocol version. Before v5, {@code duration} goes out as
     * the custom type {@code org.apache.cassandra.db.marshal.DurationType}, as Cassandra sends it; {@code vector} is
     * always the custom type {@code org.apache.cassandra.db.marshal.VectorType(<element> , <n>)}.
     */
    public abstract void writeTypeOption(ByteBuf out, int protocolVersion);

    /** The frozen form of this type: itself unless it is a non-frozen collection or UDT. */
    public CqlType freeze() {
        return this;
    }

    /** True if the zero-length buffer is a legal value (Cassandra's {@code allowsEmpty}). */
    public abstract boolean allowsEmpty();

    /**
     * True if an empty value of this type is no value where functions, casts and sum/avg read it (Cassandra's
     * {@code isEmptyValueMeaningless}): the older fixed-size and numeric types, whose empty value exists for Thrift's
     * sake. Text, ascii and blob have a real empty value; min, max and count see every value as it is.
     */
    public boolean emptyIsNoValue() {
        return switch (kind()) {
            case BOOLEAN, DECIMAL, DOUBLE, FLOAT, INET, INT, BIGINT, COUNTER, TIMESTAMP, UUID, TIMEUUID, VARINT -> true;
            default -> false;
        };
    }

    /** {@code value}, or null if it is empty and {@link #emptyIsNoValue}. */
    public ByteBuffer orNoValue(ByteBuffer value) {
        return value != null && !value.hasRemaining() && emptyIsNoValue() ? null : value;
    }

    /** True if this type is or contains {@code duration}. */
    public boolean referencesDuration() {
        return kind() == Kind.DURATION;
    }

    /**
     * True if values of this type may form a partition or clustering key, and so have
     * {@link #encodeComparable}: everything except counter, duration (anywhere inside), and non-frozen collections
     * and UDTs.
     */
    public boolean isAllowedInPrimaryKey() {
        return !isMultiCell() && !referencesDuration() && kind() != Kind.COUNTER;
    }

    // ---------------------------------------------------------------- values

    /** Checks that {@code value} (non-null) is a valid serialization of this type. */
    public abstract void validate(ByteBuffer value);

    /**
     * The Java form of a serialized value (see {@link CqlTypes} for the mapping); {@code null} for a null value and
     * for an empty value of a type whose empty value has no Java form.
     */
    public abstract Object compose(ByteBuffer value);

    /** Serializes a Java value (see {@link CqlTypes} for the accepted classes); {@code null} gives {@code null}. */
    public abstract ByteBuffer decompose(Object value);

    /** Cassandra's order for two non-null valid values of this type; empty values sort first. */
    public abstract int compare(ByteBuffer left, ByteBuffer right);

    /**
     * Appends the order-preserving, prefix-free encoding of {@code value} (non-null, valid) to {@code out}.
     *
     * @throws InvalidRequestException if this type is not {@link #isAllowedInPrimaryKey() allowed in a key} or the
     *     value is invalid
     */
    public abstract void encodeComparable(ByteBuffer value, ComparableBytesWriter out);

    /**
     * Reads one value written by {@link #encodeComparable} and returns its canonical serialization.
     *
     * @throws IllegalArgumentException if the bytes are not such an encoding
     */
    public abstract ByteBuffer decodeComparable(ComparableBytesReader in);

    /**
     * The one serialization that stands for every value equal to {@code value} under {@link #compare}: minimal
     * varints, decimals without trailing zeros, booleans 0/1, a single NaN, tuples and UDTs with every field present,
     * sets and maps sorted by element and key without duplicates, applied recursively.
     */
    public abstract ByteBuffer canonical(ByteBuffer value);

    /**
     * Whether every value of this type has one serialization, so that {@link #canonical} returns what it is given and
     * {@code decodeComparable(encodeComparable(v))} is {@code v}. False by default, which is always safe: the caller
     * then compares with {@link #canonical}.
     */
    public boolean hasOneForm() {
        return false;
    }

    /**
     * A value a client bound, as statements write it: sets sorted and deduplicated by element and maps by key (of equal
     * elements the first is kept, of equal keys the last entry), and tuples and UDTs with every
     * field, at every level of collections, tuples and UDTs; everything else byte for byte as sent, vectors included,
     * as Cassandra keeps it: a decimal keeps its scale, in a list, a set or as a map key alike.
     */
    public ByteBuffer normalized(ByteBuffer value) {
        return value;
    }

    // ---------------------------------------------------------------- literals and text

    /**
     * Converts a parsed CQL constant, as Cassandra does when it binds a literal to a receiver of this type.
     * {@code text} is the constant as the lexer produced it: a STRING's content with quotes removed, a HEX constant
     * with its {@code 0x}, a FLOAT possibly {@code NaN}, {@code Infinity} or negative.
     *
     * @param receiver the column or element the constant is assigned to, named in the error message
     */
    public final ByteBuffer fromConstant(ConstantKind kind, String text, String receiver) {
        if (!accepts(kind))
            throw new InvalidRequestException(
                    "Invalid " + kind + " constant (" + text + ") for \"" + receiver + "\" of type " + cqlName());
        return parseConstant(kind, text);
    }

    /** Like {@link #fromConstant(ConstantKind, String, String)}, for when no receiver name is at hand. */
    public final ByteBuffer fromConstant(ConstantKind kind, String text) {
        if (!accepts(kind))
            throw new InvalidRequestException("Invalid " + kind + " constant (" + text + ") for type " + cqlName());
        return parseConstant(kind, text);
    }

    /** True if a constant of this kind may be assigned to this type (Cassandra's {@code testAssignment}). */
    public boolean accepts(ConstantKind kind) {
        return false;
    }

    ByteBuffer parseConstant(ConstantKind kind, String text) {
        return fromString(text);
    }

    /** Parses Cassandra's textual form of a value ({@code AbstractType.fromString}), as CAST and text conversions use. */
    public abstract ByteBuffer fromString(String text);

    /** Cassandra's textual form of a value ({@code AbstractType.getString}); the inverse of {@link #fromString}. */
    public abstract String asString(ByteBuffer value);

    /** The value as a CQL literal, e.g. {@code 'it''s'}, {@code 0xcafe}, {@code {1, 2}}; {@code null} gives {@code null}. */
    public abstract String toCqlLiteral(ByteBuffer value);

    // ---------------------------------------------------------------- JSON

    /** The value as {@code SELECT JSON} and {@code toJson()} print it; {@code null} gives {@code null}. */
    public abstract String toJson(ByteBuffer value);

    /**
     * Converts a value parsed from JSON by Jackson ({@code String}, {@code Number}, {@code Boolean}, {@code List},
     * {@code Map} or {@code null}) as {@code INSERT JSON} and {@code fromJson()} do; {@code null} gives {@code null}.
     */
    public abstract ByteBuffer fromJson(Object parsed);

    /**
     * Cassandra's {@code AbstractType.toString()}: the marshal class form, frozen types wrapped in FrozenType, with every
     * field of a user type; result metadata ids are digests of it.
     */
    public final String marshalName() {
        return marshalName(false);
    }

    // ---------------------------------------------------------------- package internals

    /** Cassandra's {@code AbstractType.toString(ignoreFreezing)}: the marshal class form used in custom type options. */
    abstract String marshalName(boolean ignoreFreezing);

    /** The serialized length of every non-empty value, or -1 if it varies; decides vector layout. */
    int fixedLength() {
        return -1;
    }

    @Override
    public String toString() {
        return cqlName();
    }
}

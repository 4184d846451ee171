package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The CQL types: one instance per native type, factories for the others, and {@link #parse} for type strings.
 *
 * <p>Java forms used by {@link CqlType#compose} and accepted by {@link CqlType#decompose}:
 * <table>
 * <tr><td>ascii, text</td><td>String</td></tr>
 * <tr><td>bigint, counter</td><td>Long</td></tr>
 * <tr><td>blob</td><td>ByteBuffer (read-only); decompose also takes byte[]</td></tr>
 * <tr><td>boolean</td><td>Boolean</td></tr>
 * <tr><td>date</td><td>LocalDate; decompose also takes the raw unsigned day as Integer</td></tr>
 * <tr><td>decimal</td><td>BigDecimal</td></tr>
 * <tr><td>double / float</td><td>Double / Float</td></tr>
 * <tr><td>duration</td><td>{@link CqlDuration}</td></tr>
 * <tr><td>inet</td><td>InetAddress</td></tr>
 * <tr><td>int / smallint / tinyint</td><td>Integer / Short / Byte</td></tr>
 * <tr><td>time</td><td>LocalTime; decompose also takes Long nanoseconds</td></tr>
 * <tr><td>timestamp</td><td>Instant; decompose also takes Long milliseconds and Date</td></tr>
 * <tr><td>uuid, timeuuid</td><td>UUID</td></tr>
 * <tr><td>varint</td><td>BigInteger</td></tr>
 * <tr><td>list, vector / set / map</td><td>List / Set (ordered) / Map (ordered)</td></tr>
 * <tr><td>tuple</td><td>List with one entry per field, null for null</td></tr>
 * <tr><td>user type</td><td>Map from field name to value; decompose also takes a List in field order</td></tr>
 * </table>
 * An empty value composes to null, except for text and ascii ("") and blob (an empty buffer).
 */
public final class CqlTypes {
    public static final CqlType ASCII = TextType.ascii();
    public static final CqlType BIGINT = FixedIntType.bigint();
    public static final CqlType BLOB = new BlobType();
    public static final CqlType BOOLEAN = new BooleanType();
    public static final CqlType COUNTER = FixedIntType.counter();
    public static final CqlType DATE = new DateType();
    public static final CqlType DECIMAL = new DecimalType();
    public static final CqlType DOUBLE = FloatingType.float64();
    public static final CqlType DURATION = new DurationType();
    public static final CqlType FLOAT = FloatingType.float32();
    public static final CqlType INET = new InetType();
    public static final CqlType INT = FixedIntType.integer();
    public static final CqlType SMALLINT = FixedIntType.smallint();
    public static final CqlType TEXT = TextType.text();
    /** {@code varchar} is another name for {@code text}. */
    public static final CqlType VARCHAR = TEXT;
    public static final CqlType TIME = new TimeType();
    /** Reads {@code 'now'} from the UTC system clock; see {@link #timestamp(Clock)}. */
    public static final CqlType TIMESTAMP = new TimestampType(Clock.systemUTC());
    public static final CqlType TIMEUUID = UuidType.timeuuid();
    public static final CqlType TINYINT = FixedIntType.tinyint();
    public static final CqlType UUID = UuidType.uuid();
    public static final CqlType VARINT = new VarintType();

    private static final Map<String, CqlType> NATIVE = Map.ofEntries(
            Map.entry("ascii", ASCII), Map.entry("bigint", BIGINT), Map.entry("blob", BLOB),
            Map.entry("boolean", BOOLEAN), Map.entry("counter", COUNTER), Map.entry("date", DATE),
            Map.entry("decimal", DECIMAL), Map.entry("double", DOUBLE), Map.entry("duration", DURATION),
            Map.entry("float", FLOAT), Map.entry("inet", INET), Map.entry("int", INT), Map.entry("smallint", SMALLINT),
            Map.entry("text", TEXT), Map.entry("varchar", TEXT), Map.entry("time", TIME),
            Map.entry("timestamp", TIMESTAMP), Map.entry("timeuuid", TIMEUUID), Map.entry("tinyint", TINYINT),
            Map.entry("uuid", UUID), Map.entry("varint", VARINT));

    private CqlTypes() {}

    /** The native type of this lower-case name ({@code varchar} gives text), or null. */
    public static CqlType nativeType(String name) {
        return NATIVE.get(name);
    }

    /** A {@code timestamp} type that reads {@code 'now'} from {@code clock}; it equals {@link #TIMESTAMP}. */
    public static CqlType timestamp(Clock clock) {
        return new TimestampType(clock);
    }

    /**
     * Parses a type as CQL DDL and {@code system_schema.columns.type} write it: {@code int}, {@code VARCHAR},
     * {@code frozen<map<text, int>>}, {@code list<frozen<tuple<int, text>>>}, {@code vector<float, 3>},
     * {@code "MyType"}, {@code ks.addr}. Fails with {@link ballot.cql.error.SyntaxException} for malformed strings and
     * {@link InvalidRequestException} for unknown or disallowed types, worded as Cassandra words them.
     */
    public static CqlType parse(String typeString, UserTypeResolver resolver) {
        return TypeStringParser.parse(typeString, resolver);
    }

    /**
     * How deep new schema may nest types (a column's or a field's type; a native type is 1 deep). Cassandra sets no
     * limit; drivers' suites nest 32 tuples around an int.
     */
    public static final int DEPTH_MAX = 64;

    /** The types {@code type} is made of: elements, keys and values, fields; none for a native or custom type. */
    public static List<CqlType> components(CqlType type) {
        if (type instanceof ListType l) return List.of(l.elements());
        if (type instanceof SetType set) return List.of(set.elements());
        if (type instanceof MapType m) return List.of(m.keys(), m.values());
        if (type instanceof VectorType v) return List.of(v.elements());
        if (type instanceof TupleType t) return t.fieldTypes();
        if (type instanceof UserType u) return u.fieldTypes();
        return List.of();
    }

    /**
     * {@code type} with every user type in it replaced by the tuple of its fields, frozen or not as it was elsewhere:
     * the type Cassandra records for a dropped column, which outlives the user types it used.
     */
    public static CqlType withoutUserTypes(CqlType type) {
        if (type instanceof UserType u) return tuple(u.fieldTypes().stream().map(CqlTypes::withoutUserTypes).toList());
        if (type instanceof TupleType t) return tuple(t.fieldTypes().stream().map(CqlTypes::withoutUserTypes).toList());
        if (type instanceof ListType l) return list(withoutUserTypes(l.elements()), !l.isMultiCell());
        if (type instanceof SetType s) return set(withoutUserTypes(s.elements()), !s.isMultiCell());
        if (type instanceof MapType m) return map(withoutUserTypes(m.keys()), withoutUserTypes(m.values()), !m.isMultiCell());
        if (type instanceof VectorType v) return vector(withoutUserTypes(v.elements()), v.dimension());
        return type;
    }

    /** How deep {@code type} nests: 1 without components, else 1 more than its deepest component. */
    public static int depth(CqlType type) {
        int inner = 0;
        for (CqlType c : components(type)) inner = Math.max(inner, depth(c));
        return 1 + inner;
    }

    /**
     * Refuses {@code type} for new schema if it nests deeper than {@link #DEPTH_MAX}; {@code what} names it. Schema
     * already stored is not checked, so it still loads.
     */
    public static void checkDepth(CqlType type, String what) {
        int depth = depth(type);
        if (depth > DEPTH_MAX)
            throw new InvalidRequestException(what + " nests " + depth + " types deep; at most " + DEPTH_MAX + " levels are allowed");
    }

    /**
     * Reads a type written as an {@code [option]}: the inverse of {@link CqlType#writeTypeOption}, for decoding
     * result metadata. Custom options are read as Cassandra's marshal class names (vector, duration before v5).
     * Options do not say what is frozen: an outer collection or UDT reads as non-frozen, nested ones as frozen.
     *
     * @throws ballot.cql.error.ProtocolException for an unknown id or unsupported custom class
     */
    public static CqlType readTypeOption(ByteBuf in) {
        return TypeOptions.read(in);
    }

    /** {@code list<elements>}; a frozen list freezes its elements. */
    public static ListType list(CqlType elements, boolean frozen) {
        checkCollectionElement(elements, "list<" + elements.cqlName() + ">", frozen);
        return new ListType(frozen ? elements.freeze() : elements, frozen);
    }

    /** {@code set<elements>}; durations are not allowed. */
    public static SetType set(CqlType elements, boolean frozen) {
        String name = "set<" + elements.cqlName() + ">";
        checkCollectionElement(elements, name, frozen);
        if (elements.kind() == CqlType.Kind.DURATION)
            throw new InvalidRequestException("Durations are not allowed inside sets: " + name);
        return new SetType(frozen ? elements.freeze() : elements, frozen);
    }

    /** {@code map<keys, values>}; duration keys are not allowed. */
    public static MapType map(CqlType keys, CqlType values, boolean frozen) {
        String name = "map<" + keys.cqlName() + ", " + values.cqlName() + ">";
        checkCollectionElement(values, name, frozen);
        checkCollectionElement(keys, name, frozen);
        if (keys.kind() == CqlType.Kind.DURATION)
            throw new InvalidRequestException("Durations are not allowed as map keys: " + name);
        return new MapType(frozen ? keys.freeze() : keys, frozen ? values.freeze() : values, frozen);
    }

    private static void checkCollectionElement(CqlType element, String name, boolean frozen) {
        if (element.kind() == CqlType.Kind.COUNTER)
            throw new InvalidRequestException("Counters are not allowed inside collections: " + name);
        if (!frozen && element.isMultiCell())
            throw new InvalidRequestException((element.kind() == CqlType.Kind.UDT
                    ? "Non-frozen UDTs are not allowed inside collections: "
                    : "Non-frozen collections are not allowed inside collections: ") + name);
    }

    /** {@code tuple<...>}, always frozen, as are its field types. */
    public static TupleType tuple(List<CqlType> fieldTypes) {
        if (fieldTypes.isEmpty())
            throw new InvalidRequestException("A tuple must have at least one component");
        for (CqlType t : fieldTypes)
            if (t.kind() == CqlType.Kind.COUNTER)
                throw new InvalidRequestException("Counters are not allowed inside tuples");
        return new TupleType(fieldTypes.stream().map(CqlType::freeze).toList());
    }

    /**
     * A user-defined type. Field names are exact (unquoted, case as declared); field types are used as given, and
     * frozen or not as declared.
     */
    public static UserType userType(String keyspace, String name, List<String> fieldNames, List<CqlType> fieldTypes,
                                    boolean frozen) {
        for (CqlType t : fieldTypes)
            if (t.kind() == CqlType.Kind.COUNTER)
                throw new InvalidRequestException("A user type cannot contain counters");
        return new UserType(keyspace, name, fieldNames, fieldTypes, frozen);
    }

    /**
     * {@code vector<elements, dimension>}; the element type is frozen. Unlike collections and tuples, Cassandra 5.0 takes
     * {@code counter} elements: the vector is then an ordinary column of 8-byte values, not a counter.
     */
    public static VectorType vector(CqlType elements, int dimension) {
        return new VectorType(elements, dimension);
    }
}

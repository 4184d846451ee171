package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A user-defined type: keyspace, name, and named fields of frozen types; frozen (one value) or not (one cell per
 * field). Serialized like a tuple. Java form: a {@code Map} from field name to the field's Java form, in field
 * order, null for null. Literal {@code {street: 'x', "Zip": 1}}; JSON {@code {"street": "x", "\"Zip\"": 1}}.
 */
public final class UserType extends TupleLikeType {
    private final String keyspace;
    private final String name;
    private final List<String> fieldNames;
    private final boolean frozen;

    UserType(String keyspace, String name, List<String> fieldNames, List<CqlType> fieldTypes, boolean frozen) {
        super(fieldTypes);
        if (fieldNames.size() != fieldTypes.size())
            throw new IllegalArgumentException(fieldNames.size() + " field names for " + fieldTypes.size() + " types");
        if (fieldNames.stream().distinct().count() != fieldNames.size())
            throw new InvalidRequestException("Duplicate field name in type " + name + ": " + fieldNames);
        this.keyspace = Objects.requireNonNull(keyspace, "keyspace");
        this.name = Objects.requireNonNull(name, "name");
        this.fieldNames = Collections.unmodifiableList(new ArrayList<>(fieldNames));
        this.frozen = frozen;
    }

    public String keyspace() {
        return keyspace;
    }

    /** The type's name as stored (case-sensitive, unquoted). */
    public String name() {
        return name;
    }

    public List<String> fieldNames() {
        return fieldNames;
    }

    public List<CqlType> fieldTypes() {
        return fieldTypes;
    }

    /** The position of a field, or -1 if there is no field of that (exact, unquoted) name. */
    public int fieldIndex(String fieldName) {
        return fieldNames.indexOf(fieldName);
    }

    @Override
    public Kind kind() {
        return Kind.UDT;
    }

    @Override
    public String cqlName() {
        String quoted = CqlIdentifiers.maybeQuote(name);
        return frozen ? "frozen<" + quoted + ">" : quoted;
    }

    @Override
    public boolean isMultiCell() {
        return !frozen;
    }

    @Override
    public UserType freeze() {
        return frozen ? this : new UserType(keyspace, name, fieldNames, fieldTypes, true);
    }

    /** The non-frozen form of this type. */
    public UserType unfreeze() {
        return frozen ? new UserType(keyspace, name, fieldNames, fieldTypes, false) : this;
    }

    @Override
    String describeField(int i) {
        return i + "th field " + fieldNames.get(i);
    }

    @Override
    String valueNoun() {
        return "UDT";
    }

    @Override
    void validateField(int i, ByteBuffer field) {
        try {
            super.validateField(i, field);
        } catch (InvalidRequestException e) {
            throw new InvalidRequestException("Failure validating the " + describeField(i) + "; " + e.getMessage(), e);
        }
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0x0030);
        NativeType.writeString(out, keyspace);
        NativeType.writeString(out, name);
        out.writeShort(size());
        for (int i = 0; i < size(); i++) {
            NativeType.writeString(out, fieldNames.get(i));
            fieldTypes.get(i).writeTypeOption(out, protocolVersion);
        }
    }

    @Override
    String marshalName(boolean ignoreFreezing) {
        boolean wrap = !ignoreFreezing && frozen;
        StringBuilder sb = new StringBuilder();
        if (wrap)
            sb.append(CollectionType.MARSHAL_PACKAGE).append("FrozenType(");
        sb.append(CollectionType.MARSHAL_PACKAGE).append("UserType(").append(keyspace).append(',')
                .append(Hex.encode(ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8))));
        for (int i = 0; i < size(); i++)
            sb.append(',').append(Hex.encode(ByteBuffer.wrap(fieldNames.get(i).getBytes(StandardCharsets.UTF_8))))
                    .append(':').append(fieldTypes.get(i).marshalName(ignoreFreezing || frozen));
        sb.append(')');
        if (wrap)
            sb.append(')');
        return sb.toString();
    }

    /** Serializes a UDT literal from field name (exact, unquoted) to value; absent and null fields are null. */
    public ByteBuffer pack(Map<String, ByteBuffer> fields) {
        ByteBuffer[] values = new ByteBuffer[size()];
        for (Map.Entry<String, ByteBuffer> e : fields.entrySet()) {
            int i = fieldIndex(e.getKey());
            if (i < 0)
                throw unknownField(e.getKey());
            values[i] = e.getValue();
        }
        return packFields(java.util.Arrays.asList(values));
    }

    /** Serializes field values given in field order, null for null; missing trailing fields become null. */
    public ByteBuffer pack(List<ByteBuffer> fields) {
        return packFields(fields);
    }

    private InvalidRequestException unknownField(String field) {
        return new InvalidRequestException("Unknown field '" + field + "' in value of user defined type " + name);
    }

    @Override
    public Object compose(ByteBuffer value) {
        if (value == null)
            return null;
        validate(value);
        if (!value.hasRemaining())
            return null;
        Map<String, Object> out = new LinkedHashMap<>();
        ByteBuffer[] fields = split(value);
        for (int i = 0; i < fields.length; i++)
            out.put(fieldNames.get(i), fields[i] == null ? null : fieldTypes.get(i).compose(fields[i]));
        return out;
    }

    /** Accepts a {@code Map} from field name to Java value, or a {@code List} of Java values in field order. */
    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof List) {
            List<ByteBuffer> fields = new ArrayList<>();
            for (Object field : (List<?>) value)
                fields.add(field == null ? null : fieldTypes.get(fields.size()).decompose(field));
            return pack(fields);
        }
        if (!(value instanceof Map))
            throw new InvalidRequestException("Expected a Map for " + cqlName() + ", got " + value.getClass().getSimpleName());
        Map<String, ByteBuffer> fields = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            String field = String.valueOf(e.getKey());
            int i = fieldIndex(field);
            if (i < 0)
                throw unknownField(field);
            fields.put(field, e.getValue() == null ? null : fieldTypes.get(i).decompose(e.getValue()));
        }
        return pack(fields);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null)
            return "null";
        validate(value);
        ByteBuffer[] fields = split(value);
        int present = presentFields(value, size());
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < present; i++)
            sb.append(i > 0 ? ", " : "").append(CqlIdentifiers.maybeQuote(fieldNames.get(i))).append(": ")
                    .append(fields[i] == null ? "null" : fieldTypes.get(i).toCqlLiteral(fields[i]));
        return sb.append('}').toString();
    }

    /** A field name as a JSON key: quoted CQL-style if it is not all lower case, as Cassandra writes it. */
    private static String jsonKey(String field) {
        return Json.quote(field.equals(field.toLowerCase(Locale.US)) ? field : '"' + field + '"');
    }

    @Override
    String toJsonFields(ByteBuffer[] fields) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < fields.length; i++)
            sb.append(i > 0 ? ", " : "").append(jsonKey(fieldNames.get(i))).append(": ")
                    .append(fields[i] == null ? "null" : fieldTypes.get(i).toJson(fields[i]));
        return sb.append('}').toString();
    }

    /** Keys name fields CQL-style: {@code "\"Foo\""} is the field Foo, any other key is lower-cased. */
    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (!(parsed instanceof Map))
            throw new InvalidRequestException("Expected a map, but got a " + Json.describe(parsed));
        Map<String, ByteBuffer> fields = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) parsed).entrySet()) {
            String key = String.valueOf(e.getKey());
            String field = key.length() > 1 && key.startsWith("\"") && key.endsWith("\"")
                    ? key.substring(1, key.length() - 1) : key.toLowerCase(Locale.US);
            int i = fieldIndex(field);
            if (i < 0)
                throw unknownField(field);
            fields.put(field, e.getValue() == null ? null : fieldTypes.get(i).fromJson(e.getValue()));
        }
        return pack(fields);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UserType))
            return false;
        UserType that = (UserType) o;
        return that.frozen == frozen && that.keyspace.equals(keyspace) && that.name.equals(name)
                && that.fieldNames.equals(fieldNames) && that.fieldTypes.equals(fieldTypes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keyspace, name, fieldNames, fieldTypes, frozen);
    }
}

package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Cassandra's marshal class form of a type ({@code AbstractType.toString()}), as custom type options and quoted
 * custom types in DDL carry it: {@code org.apache.cassandra.db.marshal.VectorType(...FloatType , 3)},
 * {@code FrozenType(ListType(Int32Type))}, {@code UserType(ks,6b6579,...)}. The package prefix is optional, as in
 * Cassandra. Inside {@code FrozenType(...)} every nested type is frozen; {@code ReversedType(T)} reads as T. Classes
 * that are native CQL types read as those types; {@code LexicalUUIDType}, {@code CompositeType(...)} and
 * {@code DynamicCompositeType(...)} read as {@link CustomType}s; Cassandra's other classes are refused.
 */
final class MarshalNameParser {
    private static final String PACKAGE = "org.apache.cassandra.db.marshal.";
    private static final Map<String, CqlType> NATIVE = Map.ofEntries(
            Map.entry("AsciiType", CqlTypes.ASCII), Map.entry("LongType", CqlTypes.BIGINT),
            Map.entry("BytesType", CqlTypes.BLOB), Map.entry("BooleanType", CqlTypes.BOOLEAN),
            Map.entry("CounterColumnType", CqlTypes.COUNTER), Map.entry("SimpleDateType", CqlTypes.DATE),
            Map.entry("DecimalType", CqlTypes.DECIMAL), Map.entry("DoubleType", CqlTypes.DOUBLE),
            Map.entry("DurationType", CqlTypes.DURATION), Map.entry("FloatType", CqlTypes.FLOAT),
            Map.entry("InetAddressType", CqlTypes.INET), Map.entry("Int32Type", CqlTypes.INT),
            Map.entry("ShortType", CqlTypes.SMALLINT), Map.entry("UTF8Type", CqlTypes.TEXT),
            Map.entry("TimeType", CqlTypes.TIME), Map.entry("TimestampType", CqlTypes.TIMESTAMP),
            Map.entry("DateType", CqlTypes.TIMESTAMP), Map.entry("TimeUUIDType", CqlTypes.TIMEUUID),
            Map.entry("ByteType", CqlTypes.TINYINT), Map.entry("UUIDType", CqlTypes.UUID),
            Map.entry("IntegerType", CqlTypes.VARINT));

    /** Cassandra's own classes that Ballot has no counterpart for. */
    private static final Set<String> UNSUPPORTED = Set.of("ColumnToCollectionType", "EmptyType", "LegacyTimeUUIDType",
            "LocalByPartionerType", "PartitionerDefinedOrder");

    private final String input;
    private int pos;

    private MarshalNameParser(String input) {
        this.input = input;
    }

    static CqlType parse(String marshalName) {
        MarshalNameParser parser = new MarshalNameParser(marshalName);
        CqlType type = parser.type(false);
        parser.skipSpaces();
        if (parser.pos != marshalName.length())
            throw parser.error("unexpected '" + marshalName.substring(parser.pos) + "'");
        return type;
    }

    private CqlType type(boolean frozen) {
        String name = className();
        switch (name) {
            case "FrozenType": {
                expect('(');
                CqlType inner = type(true);
                expect(')');
                return inner.freeze();
            }
            case "ReversedType": {
                expect('(');
                CqlType inner = type(frozen);
                expect(')');
                return inner;
            }
            case "ListType": {
                List<CqlType> p = parameters(frozen, 1);
                return CqlTypes.list(p.get(0), frozen);
            }
            case "SetType": {
                List<CqlType> p = parameters(frozen, 1);
                return CqlTypes.set(p.get(0), frozen);
            }
            case "MapType": {
                List<CqlType> p = parameters(frozen, 2);
                return CqlTypes.map(p.get(0), p.get(1), frozen);
            }
            case "TupleType":
                return CqlTypes.tuple(parameters(true, -1));
            case "VectorType": {
                expect('(');
                CqlType elements = type(false);
                expect(',');
                int dimension = dimension(token());
                expect(')');
                return CqlTypes.vector(elements, dimension);
            }
            case "UserType":
                return userType(frozen);
            case "LexicalUUIDType":
                return LexicalUuidType.INSTANCE;
            case "CompositeType":
                return new CompositeType(optionalParameters());
            case "DynamicCompositeType":
                return new DynamicCompositeType(aliases());
            default: {
                CqlType type = NATIVE.get(name);
                if (type != null)
                    return type;
                if (UNSUPPORTED.contains(name))
                    throw new InvalidRequestException("Ballot does not support the type class " + PACKAGE + name);
                throw new InvalidRequestException("Unable to find abstract-type class '"
                        + (name.contains(".") ? name : PACKAGE + name) + "'");
            }
        }
    }

    /** {@code (ks,hexName,hexField:type,...)}; nested types are frozen when the UDT is, as in Cassandra. */
    private CqlType userType(boolean frozen) {
        expect('(');
        String keyspace = token();
        expect(',');
        String name = unhex(token());
        List<String> fieldNames = new ArrayList<>();
        List<CqlType> fieldTypes = new ArrayList<>();
        while (accept(',')) {
            fieldNames.add(unhex(token()));
            expect(':');
            fieldTypes.add(type(frozen));
        }
        expect(')');
        return CqlTypes.userType(keyspace, name, fieldNames, fieldTypes, frozen);
    }

    /** {@code (T1,T2,...)} as CompositeType takes them; none at all is an empty list, as in Cassandra. */
    private List<CqlType> optionalParameters() {
        skipSpaces();
        if (pos >= input.length() || input.charAt(pos) != '(')
            return List.of();
        return parameters(true, -1);
    }

    /** {@code (a=>T1,b=>T2,...)}: single-character aliases, as DynamicCompositeType takes them. */
    private Map<Byte, CqlType> aliases() {
        Map<Byte, CqlType> aliases = new HashMap<>();
        if (!accept('('))
            return aliases;
        if (accept(')'))
            return aliases;
        do {
            String alias = token();
            if (alias.length() != 1)
                throw error("An alias should be a single character");
            char c = alias.charAt(0);
            if (c < 33 || c > 127)
                throw error("An alias should be a single character in [0..9a..bA..B-+._&]");
            expect('=');
            expect('>');
            aliases.put((byte) c, type(true));
        } while (accept(','));
        expect(')');
        return aliases;
    }

    private List<CqlType> parameters(boolean frozen, int count) {
        expect('(');
        List<CqlType> types = new ArrayList<>();
        do {
            types.add(type(frozen));
        } while (accept(','));
        expect(')');
        if (count >= 0 && types.size() != count)
            throw error("expected " + count + " type parameters, got " + types.size());
        return types;
    }

    private String className() {
        String name = token();
        return name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : name;
    }

    /** A run of characters up to the next delimiter. */
    private String token() {
        skipSpaces();
        int start = pos;
        while (pos < input.length() && "(),:= ".indexOf(input.charAt(pos)) < 0)
            pos++;
        if (start == pos)
            throw error("expected a name at position " + pos);
        return input.substring(start, pos);
    }

    private int dimension(String token) {
        try {
            return Integer.parseInt(token);
        } catch (NumberFormatException e) {
            throw error("'" + token + "' is not a vector dimension");
        }
    }

    /** A user type's or field's name, which the marshal form writes in hex. */
    private String unhex(String hex) {
        try {
            return StandardCharsets.UTF_8.decode(ByteBuffer.wrap(Hex.decode(hex))).toString();
        } catch (NumberFormatException e) {
            throw error("'" + hex + "' is not a hex-encoded name");
        }
    }

    private void skipSpaces() {
        while (pos < input.length() && input.charAt(pos) == ' ')
            pos++;
    }

    private boolean accept(char c) {
        skipSpaces();
        if (pos < input.length() && input.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c))
            throw error("expected '" + c + "' at position " + pos);
    }

    private InvalidRequestException error(String reason) {
        return new InvalidRequestException("Cannot parse type class '" + input + "': " + reason);
    }
}

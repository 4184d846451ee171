package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a CQL type as DDL writes it and {@code system_schema.columns.type} stores it. Keywords and unquoted names are
 * case-insensitive (lower-cased); {@code "Quoted"} names keep their case, {@code ""} escaping a quote. Parsing builds
 * a raw tree first because freezing reaches inwards: {@code frozen<list<list<int>>>} freezes the inner list too, while
 * {@code list<list<int>>} is an error, as in Cassandra.
 */
final class TypeStringParser {
    private final String input;
    private final UserTypeResolver resolver;
    private int pos;

    private TypeStringParser(String input, UserTypeResolver resolver) {
        this.input = input;
        this.resolver = resolver;
    }

    static CqlType parse(String input, UserTypeResolver resolver) {
        TypeStringParser parser = new TypeStringParser(input, resolver);
        Raw raw = parser.type();
        parser.skipSpaces();
        if (parser.pos < input.length())
            throw parser.syntax("unexpected '" + input.substring(parser.pos) + "'");
        return raw.prepare();
    }

    // ---------------------------------------------------------------- grammar

    private Raw type() {
        skipSpaces();
        if (peekChar() == '"')
            return userType(quotedName());
        if (peekChar() == '\'')
            return custom(customClass());
        String word = word();
        String lower = word.toLowerCase(Locale.ROOT);
        skipSpaces();
        if (peekChar() == '<') {
            switch (lower) {
                case "frozen": {
                    expect('<');
                    Raw inner = type();
                    expect('>');
                    return inner.freeze();
                }
                case "list":
                case "set": {
                    expect('<');
                    Raw elements = type();
                    expect('>');
                    return new RawCollection(lower.equals("list") ? CqlType.Kind.LIST : CqlType.Kind.SET, null, elements, false);
                }
                case "map": {
                    expect('<');
                    Raw keys = type();
                    expect(',');
                    Raw values = type();
                    expect('>');
                    return new RawCollection(CqlType.Kind.MAP, keys, values, false);
                }
                case "tuple": {
                    expect('<');
                    List<Raw> fields = new ArrayList<>();
                    do {
                        fields.add(type());
                    } while (accept(','));
                    expect('>');
                    return new RawTuple(fields);
                }
                case "vector": {
                    expect('<');
                    Raw elements = type();
                    expect(',');
                    int dimension = integer();
                    expect('>');
                    return new RawVector(elements, dimension);
                }
                default:
                    throw syntax("unknown parameterized type " + word);
            }
        }
        CqlType nativeType = CqlTypes.nativeType(lower);
        if (nativeType != null)
            return new RawNative(nativeType);
        return userType(lower);
    }

    /** A UDT name, already unquoted or lower-cased, optionally qualified: {@code ks.name}. */
    private Raw userType(String first) {
        skipSpaces();
        if (!accept('.'))
            return new RawUserType(null, first, false);
        skipSpaces();
        String second = peekChar() == '"' ? quotedName() : word().toLowerCase(Locale.ROOT);
        return new RawUserType(first, second, false);
    }

    private String word() {
        skipSpaces();
        int start = pos;
        if (pos < input.length() && Character.isLetter(input.charAt(pos)))
            pos++;
        while (pos < input.length() && (Character.isLetterOrDigit(input.charAt(pos)) || input.charAt(pos) == '_'))
            pos++;
        if (start == pos)
            throw syntax(pos < input.length() ? "unexpected '" + input.charAt(pos) + "'" : "a type is missing");
        return input.substring(start, pos);
    }

    private String quotedName() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= input.length())
                throw syntax("unterminated quoted name");
            char c = input.charAt(pos++);
            if (c == '"') {
                if (pos < input.length() && input.charAt(pos) == '"') {
                    pos++;
                    sb.append('"');
                } else {
                    return sb.toString();
                }
            } else {
                sb.append(c);
            }
        }
    }

    /**
     * A type named by its marshal class. A class that is a native type is that type (frozen or not, as written); an
     * unknown or unsupported class is a syntax error, worded as Cassandra's parser words it.
     */
    private Raw custom(String className) {
        try {
            CqlType type = MarshalNameParser.parse(className);
            return type.kind() == CqlType.Kind.CUSTOM ? new RawCustom(type) : new RawNative(type);
        } catch (InvalidRequestException e) {
            throw new SyntaxException("Error setting type " + className + ": " + e.getMessage());
        }
    }

    /** A quoted custom type, {@code 'org.apache.cassandra.db.marshal.Int32Type'}; only Cassandra's own classes. */
    private String customClass() {
        expect('\'');
        int end = input.indexOf('\'', pos);
        if (end < 0)
            throw syntax("unterminated quoted type class");
        String className = input.substring(pos, end);
        pos = end + 1;
        return className;
    }

    private int integer() {
        skipSpaces();
        int start = pos;
        while (pos < input.length() && Character.isDigit(input.charAt(pos)))
            pos++;
        if (start == pos)
            throw syntax("expected a vector dimension");
        try {
            return Integer.parseInt(input.substring(start, pos));
        } catch (NumberFormatException e) {
            throw syntax("vector dimension " + input.substring(start, pos) + " is too large");
        }
    }

    private void skipSpaces() {
        while (pos < input.length() && Character.isWhitespace(input.charAt(pos)))
            pos++;
    }

    private char peekChar() {
        return pos < input.length() ? input.charAt(pos) : '\0';
    }

    private boolean accept(char c) {
        skipSpaces();
        if (peekChar() != c)
            return false;
        pos++;
        return true;
    }

    private void expect(char c) {
        if (!accept(c))
            throw syntax("expected '" + c + "' at position " + pos);
    }

    private SyntaxException syntax(String reason) {
        return new SyntaxException("Failed parsing CQL type: [" + input + "] reason: " + reason);
    }

    // ---------------------------------------------------------------- raw types

    /** A parsed type not yet resolved; {@code toString} is the type as Cassandra quotes it in errors. */
    private abstract class Raw {
        abstract CqlType prepare();

        boolean supportsFreezing() {
            return false;
        }

        Raw freeze() {
            throw new InvalidRequestException(
                    "frozen<> is only allowed on collections, tuples, and user-defined types (got " + this + ")");
        }

        boolean isNonFrozenComplex() {
            return false;
        }

        boolean is(CqlType.Kind kind) {
            return false;
        }
    }

    private class RawNative extends Raw {
        final CqlType type;

        RawNative(CqlType type) {
            this.type = type;
        }

        @Override
        CqlType prepare() {
            return type;
        }

        @Override
        boolean is(CqlType.Kind kind) {
            return type.kind() == kind;
        }

        @Override
        public String toString() {
            return type.cqlName();
        }
    }

    /** A custom type: like Cassandra's, it accepts {@code frozen<>}, which changes nothing. */
    private final class RawCustom extends RawNative {
        RawCustom(CqlType type) {
            super(type);
        }

        @Override
        boolean supportsFreezing() {
            return true;
        }

        @Override
        Raw freeze() {
            return this;
        }

        @Override
        public String toString() {
            return '"' + type.marshalName(false) + '"';
        }
    }

    private final class RawCollection extends Raw {
        final CqlType.Kind kind;
        final Raw keys;
        final Raw values;
        final boolean frozen;

        RawCollection(CqlType.Kind kind, Raw keys, Raw values, boolean frozen) {
            this.kind = kind;
            this.keys = keys;
            this.values = values;
            this.frozen = frozen;
        }

        @Override
        boolean supportsFreezing() {
            return true;
        }

        @Override
        Raw freeze() {
            return new RawCollection(kind, keys != null && keys.supportsFreezing() ? keys.freeze() : keys,
                    values.supportsFreezing() ? values.freeze() : values, true);
        }

        @Override
        boolean isNonFrozenComplex() {
            return !frozen;
        }

        @Override
        CqlType prepare() {
            if (!frozen && values.isNonFrozenComplex())
                throw nestedNonFrozen(values);
            if (keys != null && !frozen && keys.isNonFrozenComplex())
                throw nestedNonFrozen(keys);
            CqlType valueType = values.prepare();
            switch (kind) {
                case LIST: return CqlTypes.list(valueType, frozen);
                case SET: return CqlTypes.set(valueType, frozen);
                default: return CqlTypes.map(keys.prepare(), valueType, frozen);
            }
        }

        private InvalidRequestException nestedNonFrozen(Raw inner) {
            return new InvalidRequestException((inner instanceof RawCollection
                    ? "Non-frozen collections are not allowed inside collections: "
                    : "Non-frozen UDTs are not allowed inside collections: ") + this);
        }

        @Override
        public String toString() {
            String body = kind == CqlType.Kind.MAP ? "map<" + keys + ", " + values + ">"
                    : kind.name().toLowerCase(Locale.ROOT) + "<" + values + ">";
            return frozen ? "frozen<" + body + ">" : body;
        }
    }

    private final class RawTuple extends Raw {
        final List<Raw> fields = new ArrayList<>();

        RawTuple(List<Raw> fields) {
            for (Raw f : fields)
                this.fields.add(f.supportsFreezing() ? f.freeze() : f);
        }

        @Override
        boolean supportsFreezing() {
            return true;
        }

        @Override
        Raw freeze() {
            return this;
        }

        @Override
        CqlType prepare() {
            List<CqlType> types = new ArrayList<>();
            for (Raw f : fields)
                types.add(f.prepare());
            return CqlTypes.tuple(types);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("tuple<");
            for (int i = 0; i < fields.size(); i++)
                sb.append(i > 0 ? ", " : "").append(fields.get(i));
            return sb.append('>').toString();
        }
    }

    private final class RawVector extends Raw {
        final Raw elements;
        final int dimension;

        RawVector(Raw elements, int dimension) {
            this.elements = elements; // Cassandra keeps the element type as written
            this.dimension = dimension;
        }

        @Override
        boolean supportsFreezing() {
            return true;
        }

        @Override
        Raw freeze() {
            return this;
        }

        @Override
        CqlType prepare() {
            return CqlTypes.vector(elements.prepare(), dimension);
        }

        @Override
        public String toString() {
            return "vector<" + elements + ", " + dimension + ">";
        }
    }

    private final class RawUserType extends Raw {
        final String keyspace;
        final String name;
        final boolean frozen;

        RawUserType(String keyspace, String name, boolean frozen) {
            this.keyspace = keyspace;
            this.name = name;
            this.frozen = frozen;
        }

        @Override
        boolean supportsFreezing() {
            return true;
        }

        @Override
        Raw freeze() {
            return new RawUserType(keyspace, name, true);
        }

        @Override
        boolean isNonFrozenComplex() {
            return !frozen;
        }

        @Override
        CqlType prepare() {
            UserType type = resolver.resolve(keyspace, name);
            if (type == null) {
                String ks = keyspace != null ? keyspace : resolver.currentKeyspace();
                throw new InvalidRequestException("Unknown type " + (ks == null ? name : ks + "." + name));
            }
            return frozen ? type.freeze() : type.unfreeze();
        }

        /** As Cassandra's {@code UTName} prints itself in messages: unquoted. */
        private String qualifiedName() {
            return keyspace == null ? name : keyspace + "." + name;
        }

        @Override
        public String toString() {
            return frozen ? "frozen<" + qualifiedName() + ">" : qualifiedName();
        }
    }
}

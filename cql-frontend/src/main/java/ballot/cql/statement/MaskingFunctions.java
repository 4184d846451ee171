package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.TupleType;
import ballot.cql.type.UserType;
import ballot.cql.type.VectorType;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cassandra 5.0's masking functions (dynamic data masking), of a value of any type; unlike other functions they are
 * called on null values too: mask_null(v) is null of v's type; mask_default(v) the type's masked value, null or not
 * ('****' for text, 0, false, the epoch, zeros, empty collections); mask_replace(v, r) is r, of v's type;
 * mask_inner(s, begin, end[, padding]) pads all but the first begin and last end characters of a text or ascii,
 * mask_outer(s, begin, end[, padding]) only those (a null position is 0, the padding '*' by default, a single
 * character); mask_hash(v[, algorithm]) the digest (SHA-256 by default) of v's serialized bytes, as a blob.
 */
final class MaskingFunctions {
    private static final char PADDING = '*';
    private static final String HASH = "SHA-256";

    private MaskingFunctions() {}

    static Map<String, Functions.Factory> factories() {
        Map<String, Functions.Factory> out = new LinkedHashMap<>();
        out.put("mask_null", (name, args) -> {
            CqlType type = valueType(name, "any", args, 1, 1);
            return function(name, List.of(type), type, a -> null);
        });
        out.put("mask_default", (name, args) -> {
            CqlType type = valueType(name, "any", args, 1, 1);
            ByteBuffer masked = maskedValue(type);
            return function(name, List.of(type), type, a -> masked.duplicate());
        });
        out.put("mask_replace", (name, args) -> {
            CqlType type = valueType(name, "any, any", args, 2, 2);
            checkFits(name, args, 1, type);
            return function(name, List.of(type, type), type, a -> a.get(1));
        });
        out.put("mask_inner", partial(true));
        out.put("mask_outer", partial(false));
        out.put("mask_hash", (name, args) -> {
            CqlType type = valueType(name, "any, [text]", args, 1, 2);
            List<CqlType> types = new ArrayList<>(List.of(type));
            if (args.size() == 2) types.add(checkFits(name, args, 1, CqlTypes.TEXT));
            return function(name, types, CqlTypes.BLOB, a -> {
                MessageDigest digest = digest(a.size() == 2 && a.get(1) != null ? CqlTypes.TEXT.compose(a.get(1)).toString() : HASH);
                if (a.get(0) == null) return null;
                byte[] bytes = new byte[a.get(0).remaining()];
                a.get(0).duplicate().get(bytes);
                return ByteBuffer.wrap(digest.digest(bytes));
            });
        });
        return out;
    }

    private static Functions.Factory partial(boolean inner) {
        return (name, args) -> {
            CqlType type = valueType(name, "[text|varchar|ascii], int, int, [text]", args, 3, 4);
            if (type.kind() != CqlType.Kind.TEXT && type.kind() != CqlType.Kind.ASCII) {
                throw new InvalidRequestException("Function " + name + " requires an argument of type [text|varchar|ascii], but found argument "
                        + args.get(0).text() + " of type " + type.cqlName());
            }
            List<CqlType> types = new ArrayList<>(List.of(type, checkFits(name, args, 1, CqlTypes.INT), checkFits(name, args, 2, CqlTypes.INT)));
            if (args.size() == 4) types.add(checkFits(name, args, 3, CqlTypes.TEXT));
            return function(name, types, type, a -> {
                char padding = a.size() == 4 && a.get(3) != null ? padding(name, CqlTypes.TEXT.compose(a.get(3)).toString()) : PADDING;
                if (a.get(0) == null) return null;
                String masked = mask(type.compose(a.get(0)).toString(), position(a.get(1)), position(a.get(2)), padding, inner);
                return type.decompose(masked);
            });
        };
    }

    /** The type of the masked value, the first argument, after checking the number of arguments. */
    private static CqlType valueType(String name, String parameters, List<Argument> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw new InvalidRequestException("Invalid number of arguments for function " + name + "(" + parameters + ")");
        }
        CqlType type = args.get(0).type();
        if (type == null) {
            throw new InvalidRequestException("Cannot infer type of argument " + args.get(0).text() + " in call to function " + name + "("
                    + parameters.split(",")[0] + "): use type casts to disambiguate");
        }
        return type;
    }

    private static CqlType checkFits(String name, List<Argument> args, int index, CqlType type) {
        if (args.get(index).fit(type) == Fit.NONE) {
            throw new InvalidRequestException("Type error: " + args.get(index).text() + " cannot be passed as argument " + index
                    + " of function " + name + " of type " + type.cqlName());
        }
        return type;
    }

    private static Functions.Function function(String name, List<CqlType> argTypes, CqlType returnType, Functions.Body body) {
        return new Functions.Function(name.substring(name.indexOf('.') + 1), argTypes, returnType, body, Functions.Arguments.ALL);
    }

    private static int position(ByteBuffer value) {
        return value == null ? 0 : value.getInt(value.position());
    }

    private static char padding(String name, String padding) {
        if (padding.length() != 1) {
            throw new InvalidRequestException("The padding argument for function " + name + " should be single-character, but '"
                    + padding + "' has " + padding.length() + " characters.");
        }
        return padding.charAt(0);
    }

    /** Pads the characters from {@code begin} to {@code end} from the end (inner), or the others (outer). */
    static String mask(String value, int begin, int end, char padding, boolean inner) {
        int last = value.length() - 1 - end;
        char[] chars = value.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            boolean between = i >= begin && i <= last;
            if (between == inner) chars[i] = padding;
        }
        return new String(chars);
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new InvalidRequestException("Hash algorithm not found: " + algorithm);
        }
    }

    /** What mask_default gives for a type, as Cassandra's getMaskedValue. */
    private static ByteBuffer maskedValue(CqlType type) {
        return switch (type.kind()) {
            case TEXT, ASCII -> type.decompose("****");
            case BLOB -> ByteBuffer.allocate(0);
            case BOOLEAN -> type.fromString("false");
            case UUID -> type.fromString("00000000-0000-0000-0000-000000000000");
            case TIMEUUID -> type.fromString("13814000-1dd2-11b2-8080-808080808080"); // the least timeuuid
            case TIMESTAMP -> Functions.longValue(0);
            case DATE -> type.fromString("1970-01-01");
            case TIME -> Functions.longValue(0);
            case DURATION -> type.fromString("0s");
            case INET -> type.fromString("0.0.0.0");
            case TINYINT, SMALLINT, INT, BIGINT, COUNTER, VARINT, FLOAT, DOUBLE, DECIMAL -> type.fromString("0");
            case LIST -> ((ListType) type).pack(List.of());
            case SET -> ((SetType) type).pack(List.of());
            case MAP -> ((MapType) type).pack(List.of());
            case VECTOR -> {
                VectorType vector = (VectorType) type;
                yield vector.pack(Collections.nCopies(vector.dimension(), maskedValue(vector.elements())));
            }
            case TUPLE -> ((TupleType) type).pack(maskedValues(((TupleType) type).fieldTypes()));
            case UDT -> ((UserType) type).pack(maskedValues(((UserType) type).fieldTypes()));
            default -> throw new InvalidRequestException("Function mask_default does not support values of type " + type.cqlName());
        };
    }

    /** Each field's masked value: a tuple's or user type's masked value has them all. */
    private static List<ByteBuffer> maskedValues(List<CqlType> fieldTypes) {
        List<ByteBuffer> out = new ArrayList<>(fieldTypes.size());
        for (CqlType t : fieldTypes) out.add(maskedValue(t));
        return out;
    }
}

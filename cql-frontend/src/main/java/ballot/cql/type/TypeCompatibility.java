package ballot.cql.type;

import java.util.List;

/**
 * Cassandra's type compatibility rules ({@code AbstractType.isCompatibleWith}, {@code isValueCompatibleWith} and {@code
 * isSerializationCompatibleWith}), by which a dropped column may be added again only with a type that reads what the
 * dropped one wrote: the same type; blob for text or ascii, text for ascii, timestamp for bigint; a tuple with the dropped one's fields first;
 * a collection of the same kind and freezing whose parts are compatible.
 */
public final class TypeCompatibility {
    private TypeCompatibility() {}

    /** True if values, cell names and ordering of {@code previous} all read as {@code next} (isCompatibleWith). */
    public static boolean isCompatibleWith(CqlType next, CqlType previous) {
        if (next.cqlName().equals(previous.cqlName())) return true;
        return switch (next.kind()) {
            case BLOB -> previous.kind() == CqlType.Kind.ASCII || previous.kind() == CqlType.Kind.TEXT;
            case TEXT -> previous.kind() == CqlType.Kind.ASCII;
            case TIMESTAMP -> previous.kind() == CqlType.Kind.BIGINT;
            case TUPLE -> previous instanceof TupleType p && fieldsCompatible(((TupleType) next).fieldTypes(), p.fieldTypes());
            case LIST, SET, MAP -> next.kind() == previous.kind() && next.isMultiCell() == previous.isMultiCell()
                    && collectionCompatible(next, previous);
            default -> false;
        };
    }

    private static boolean fieldsCompatible(List<CqlType> next, List<CqlType> previous) {
        if (next.size() < previous.size()) return false;
        for (int i = 0; i < previous.size(); i++) if (!isCompatibleWith(next.get(i), previous.get(i))) return false;
        return true;
    }

    /** A frozen collection compares its parts whole; a non-frozen one its cell names (set elements, map keys) and values. */
    private static boolean collectionCompatible(CqlType next, CqlType previous) {
        boolean frozen = !next.isMultiCell();
        if (next instanceof ListType l) {
            CqlType p = ((ListType) previous).elements();
            return frozen ? isCompatibleWith(l.elements(), p) : isSerializationCompatibleWith(l.elements(), p);
        }
        if (next instanceof SetType s) return isCompatibleWith(s.elements(), ((SetType) previous).elements());
        MapType m = (MapType) next;
        MapType p = (MapType) previous;
        return isCompatibleWith(m.keys(), p.keys())
                && (frozen ? isCompatibleWith(m.values(), p.values()) : isSerializationCompatibleWith(m.values(), p.values()));
    }

    /**
     * True if {@code next} reads the values {@code previous} wrote (isValueCompatibleWith): besides compatible types, a
     * blob reads any value, a bigint a timestamp, a varint an int, a bigint or a timestamp, a uuid a timeuuid.
     */
    public static boolean isValueCompatibleWith(CqlType next, CqlType previous) {
        if (isCompatibleWith(next, previous)) return true;
        CqlType.Kind from = previous.kind();
        return switch (next.kind()) {
            case BLOB -> true;
            case BIGINT -> from == CqlType.Kind.TIMESTAMP;
            case VARINT -> from == CqlType.Kind.INT || from == CqlType.Kind.BIGINT || from == CqlType.Kind.TIMESTAMP;
            case UUID -> from == CqlType.Kind.TIMEUUID;
            default -> false;
        };
    }

    /** Value compatible and of the same fixed length, or both of varying length. */
    static boolean isSerializationCompatibleWith(CqlType next, CqlType previous) {
        return isValueCompatibleWith(next, previous) && next.fixedLength() == previous.fixedLength();
    }
}

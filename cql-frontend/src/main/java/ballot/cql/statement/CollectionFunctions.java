package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Cassandra 5.0's collection functions, of one collection argument of any element type, frozen or not: map_keys (a
 * frozen set of the keys), map_values (a frozen list of the values), collection_count (an int, of a set, list or map),
 * collection_min and collection_max (the least and greatest element of a set or list, null if empty),
 * collection_sum and collection_avg (of a set or list of numbers, in their type, 0 if empty; {@link NumericSum}). A
 * null collection gives null.
 */
final class CollectionFunctions {
    private CollectionFunctions() {}

    /** What a function requires of its argument, as its refusal words it, and its body for a type that has it. */
    private record Kind(String requires, java.util.function.Predicate<CqlType> accepts, Function<CqlType, Functions.Function> body) {}

    static Map<String, Functions.Factory> factories() {
        Map<String, Functions.Factory> out = new LinkedHashMap<>();
        out.put("map_keys", factory("map", new Kind("a map", t -> t instanceof MapType, t -> mapKeys((MapType) t))));
        out.put("map_values", factory("map", new Kind("a map", t -> t instanceof MapType, t -> mapValues((MapType) t))));
        out.put("collection_count", factory("collection", new Kind("a collection", CqlType::isCollection, CollectionFunctions::count)));
        out.put("collection_min", factory("collection", new Kind("a set or list", CollectionFunctions::isSetOrList, t -> extreme(t, false))));
        out.put("collection_max", factory("collection", new Kind("a set or list", CollectionFunctions::isSetOrList, t -> extreme(t, true))));
        out.put("collection_sum", factory("numeric_collection", new Kind("a numeric set/list", CollectionFunctions::isNumericSetOrList, t -> sum(t, false))));
        out.put("collection_avg", factory("numeric_collection", new Kind("a numeric set/list", CollectionFunctions::isNumericSetOrList, t -> sum(t, true))));
        return out;
    }

    /** A function of one argument, written {@code system.map_keys(map)} in refusals. */
    private static Functions.Factory factory(String parameter, Kind kind) {
        return (name, args) -> {
            String signature = name + "(" + parameter + ")";
            if (args.size() != 1) throw new InvalidRequestException("Invalid number of arguments for function " + signature);
            Argument arg = args.get(0);
            CqlType type = arg.type();
            if (type == null) {
                throw new InvalidRequestException("Cannot infer type of argument " + arg.text() + " in call to function " + signature
                        + ": use type casts to disambiguate");
            }
            if (!kind.accepts().test(type)) {
                throw new InvalidRequestException("Function " + name + " requires " + kind.requires() + " argument, but found argument "
                        + arg.text() + " of type " + type.cqlName());
            }
            return kind.body().apply(type);
        };
    }

    private static boolean isSetOrList(CqlType type) {
        return type instanceof SetType || type instanceof ListType;
    }

    private static boolean isNumericSetOrList(CqlType type) {
        return isSetOrList(type) && Arithmetic.isNumeric(elements(type));
    }

    private static CqlType elements(CqlType setOrList) {
        return setOrList instanceof SetType set ? set.elements() : ((ListType) setOrList).elements();
    }

    private static List<ByteBuffer> unpack(CqlType setOrList, ByteBuffer value) {
        return setOrList instanceof SetType set ? set.unpack(value) : ((ListType) setOrList).unpack(value);
    }

    private static Functions.Function function(String name, CqlType arg, CqlType returnType, Functions.Body body) {
        return new Functions.Function(name, List.of(arg), returnType, body, Functions.Arguments.VALUES);
    }

    private static Functions.Function mapKeys(MapType map) {
        SetType keys = CqlTypes.set(map.keys(), true);
        return function("map_keys", map, keys, a -> {
            List<ByteBuffer> out = new ArrayList<>();
            for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(a.get(0))) out.add(e.getKey());
            return keys.pack(out);
        });
    }

    private static Functions.Function mapValues(MapType map) {
        ListType values = CqlTypes.list(map.values(), true);
        return function("map_values", map, values, a -> {
            List<ByteBuffer> out = new ArrayList<>();
            for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(a.get(0))) out.add(e.getValue());
            return values.pack(out);
        });
    }

    private static Functions.Function count(CqlType collection) {
        return function("collection_count", collection, CqlTypes.INT, a -> {
            // a collection's serialized form begins with its element count
            return ByteBuffer.allocate(4).putInt(0, a.get(0).getInt(a.get(0).position()));
        });
    }

    private static Functions.Function extreme(CqlType collection, boolean max) {
        CqlType elements = elements(collection);
        return function(max ? "collection_max" : "collection_min", collection, elements, a -> {
            ByteBuffer best = null;
            for (ByteBuffer e : unpack(collection, a.get(0))) {
                if (best == null || (max ? elements.compare(e, best) > 0 : elements.compare(e, best) < 0)) best = e;
            }
            return best;
        });
    }

    private static Functions.Function sum(CqlType collection, boolean mean) {
        CqlType elements = elements(collection);
        return function(mean ? "collection_avg" : "collection_sum", collection, elements, a -> {
            NumericSum sum = new NumericSum(elements, mean);
            for (ByteBuffer e : unpack(collection, a.get(0))) sum.add(e);
            return sum.result();
        });
    }
}

package ballot.cql.statement;

import ballot.cql.data.Murmur3;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.TimeUuids;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Cassandra's native scalar functions (system keyspace): time and uuid functions, blob conversions, token, math
 * ({@link MathFunctions}), collection, masking and vector similarity functions ({@link VectorFunctions}). Each overload
 * has fixed argument and return types; a call is resolved by name and by how its arguments suit each overload's
 * argument types ({@link #resolve(String, List, CqlType)}).
 */
final class Functions {
    /** How a function takes null and empty arguments. */
    enum Arguments {
        /**
         * A null argument, or an empty one of a type whose empty value is no value ({@link CqlType#emptyIsNoValue}),
         * makes the result null, as Cassandra's argument deserializers do.
         */
        VALUES,
        /** The bytes as they are, empty included; a null argument makes the result null (the blob conversions). */
        BYTES,
        /** Every argument as it is, null included: the body decides (the masking functions). */
        ALL
    }

    /** One overload. {@code body} gets the serialized arguments, as {@code arguments} says. */
    record Function(String name, List<CqlType> argTypes, CqlType returnType, Body body, Arguments arguments) {
        ByteBuffer apply(List<ByteBuffer> args) {
            if (arguments == Arguments.ALL) return body.apply(args);
            for (int i = 0; i < args.size(); i++) {
                ByteBuffer arg = args.get(i);
                if (arg == null || arguments == Arguments.VALUES && argTypes.get(i).orNoValue(arg) == null) return null;
            }
            return body.apply(args);
        }
    }

    @FunctionalInterface
    interface Body {
        ByteBuffer apply(List<ByteBuffer> args);
    }

    /**
     * A function whose signature follows its arguments' types (Cassandra's FunctionFactory): each argument must give
     * a type ({@link Argument#type}), and the factory makes the function for those types or refuses them.
     */
    interface Factory {
        Function create(String name, List<Argument> args);
    }

    private static final String SYSTEM = "system";
    private static final Map<String, List<Function>> BY_NAME = new LinkedHashMap<>();
    private static final Map<String, Factory> FACTORIES = new LinkedHashMap<>();

    static {
        CqlType timeuuid = CqlTypes.TIMEUUID;
        CqlType timestamp = CqlTypes.TIMESTAMP;
        CqlType date = CqlTypes.DATE;
        add("now", List.of(), timeuuid, a -> TimeUuids.bytes(TimeUuids.next(System.currentTimeMillis())));
        add("currenttimeuuid", List.of(), timeuuid, a -> TimeUuids.bytes(TimeUuids.next(System.currentTimeMillis())));
        add("uuid", List.of(), CqlTypes.UUID, a -> TimeUuids.bytes(UUID.randomUUID()));
        add("currenttimestamp", List.of(), timestamp, a -> longValue(System.currentTimeMillis()));
        add("currentdate", List.of(), date, a -> dateValue(LocalDate.now(ZoneOffset.UTC)));
        add("currenttime", List.of(), CqlTypes.TIME, a -> longValue(LocalTime.now(ZoneOffset.UTC).toNanoOfDay()));

        add("totimestamp", List.of(timeuuid), timestamp, a -> longValue(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("totimestamp", List.of(date), timestamp, a -> longValue(dateMillis(a.get(0))));
        add("todate", List.of(timeuuid), date, a -> dateOfMillis(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("todate", List.of(timestamp), date, a -> dateOfMillis(a.get(0).getLong(a.get(0).position())));
        add("tounixtimestamp", List.of(timeuuid), CqlTypes.BIGINT, a -> longValue(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("tounixtimestamp", List.of(timestamp), CqlTypes.BIGINT, a -> a.get(0).duplicate());
        add("tounixtimestamp", List.of(date), CqlTypes.BIGINT, a -> longValue(dateMillis(a.get(0))));
        add("mintimeuuid", List.of(timestamp), timeuuid, a -> TimeUuids.bytes(TimeUuids.min(a.get(0).getLong(a.get(0).position()))));
        add("maxtimeuuid", List.of(timestamp), timeuuid, a -> TimeUuids.bytes(TimeUuids.max(a.get(0).getLong(a.get(0).position()))));

        for (String name : List.of("ascii", "bigint", "boolean", "date", "decimal", "double", "duration", "float", "inet",
                "int", "smallint", "text", "varchar", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varint")) {
            CqlType type = CqlTypes.nativeType(name);
            for (String toBlob : List.of(name + "asblob", name + "_as_blob"))
                addRaw(toBlob, List.of(type), CqlTypes.BLOB, a -> a.get(0).duplicate());
            for (String fromBlob : List.of("blobas" + name, "blob_as_" + name))
                addRaw(fromBlob, List.of(CqlTypes.BLOB), type, a -> fromBlob(fromBlob, name, type, a.get(0)));
        }

        MathFunctions.overloads().forEach(Functions::register);
        CollectionFunctions.factories().forEach(FACTORIES::put);
        MaskingFunctions.factories().forEach(FACTORIES::put);
        VectorFunctions.factories().forEach(FACTORIES::put);

        // Cassandra 5.0's snake_case names for the same functions (CASSANDRA-18037), each a function of its own name,
        // which its refusals list; the old names stay.
        Map.of("current_timeuuid", "currenttimeuuid", "current_timestamp", "currenttimestamp", "current_date", "currentdate",
                "current_time", "currenttime", "min_timeuuid", "mintimeuuid", "max_timeuuid", "maxtimeuuid", "to_date", "todate",
                "to_timestamp", "totimestamp", "to_unix_timestamp", "tounixtimestamp")
                .forEach((snake, old) -> BY_NAME.put(snake, BY_NAME.get(old).stream()
                        .map(f -> new Function(snake, f.argTypes(), f.returnType(), f.body(), f.arguments())).toList()));
    }

    /**
     * A blob's bytes as a value of {@code type}, refused as Cassandra refuses bytes that are none of its values,
     * naming the type as the function does ({@code varchar} for blobAsVarchar).
     */
    private static ByteBuffer fromBlob(String name, String typeName, CqlType type, ByteBuffer blob) {
        try {
            type.validate(blob);
        } catch (InvalidRequestException e) {
            throw new InvalidRequestException("In call to function system." + name + ", value " + CqlTypes.BLOB.toCqlLiteral(blob)
                    + " is not a valid binary representation for type " + typeName);
        }
        return blob.duplicate();
    }

    private Functions() {}

    private static void add(String name, List<CqlType> args, CqlType returnType, Body body) {
        register(new Function(name, args, returnType, body, Arguments.VALUES));
    }

    /** A blob conversion: its argument's bytes as they are. */
    private static void addRaw(String name, List<CqlType> args, CqlType returnType, Body body) {
        register(new Function(name, args, returnType, body, Arguments.BYTES));
    }

    private static void register(Function function) {
        BY_NAME.computeIfAbsent(function.name(), n -> new ArrayList<>()).add(function);
    }

    /**
     * True if a call of {@code keyspace.name} (keyspace null when unqualified) can name a native function: unqualified
     * or qualified by {@code system}. Any other keyspace names a user-defined function, which Ballot has none of.
     * Names are matched exactly, as Cassandra matches them: the parser lower-cases unquoted ones and keeps quoted ones.
     */
    static boolean nativeKeyspace(String keyspace) {
        return keyspace == null || keyspace.equals(SYSTEM);
    }

    /** A call's name as Cassandra's refusals show it: {@code ks.name}, or the name alone when unqualified. */
    static String shown(String keyspace, String name) {
        return keyspace == null ? name : keyspace + "." + name;
    }

    static boolean exists(String name) {
        return BY_NAME.containsKey(name) || FACTORIES.containsKey(name);
    }

    /** True if {@code name}'s function is made for its arguments' types ({@link Factory}). */
    static boolean isFactory(String name) {
        return FACTORIES.containsKey(name);
    }

    /** The fixed overloads of {@code name}; none for a factory's function. */
    static List<Function> overloads(String name) {
        if (isFactory(name)) return List.of();
        List<Function> overloads = BY_NAME.get(name);
        if (overloads == null) throw new InvalidRequestException("Unknown function '" + name + "'");
        return overloads;
    }

    /**
     * The overload of {@code name} a call takes, as Cassandra's FunctionResolver picks it: the only overload is taken
     * if its arguments fit at all; otherwise, among the overloads whose return type suits the receiver (if any), the
     * first whose arguments all fit exactly, else the only one whose arguments all fit, else the call is ambiguous
     * (a bind marker or null fits every type weakly: {@code abs(?)}) or matches none.
     */
    static Function resolve(String name, List<Argument> args, CqlType receiver) {
        Factory factory = FACTORIES.get(name);
        if (factory != null) return factory.create(qualified(name), args);
        List<Function> overloads = overloads(name);
        if (overloads.size() == 1) {
            Function only = overloads.get(0);
            if (only.argTypes().size() != args.size()) {
                throw new InvalidRequestException("Invalid number of arguments in call to function " + qualified(name) + ": "
                        + only.argTypes().size() + " required but " + args.size() + " provided");
            }
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).fit(only.argTypes().get(i)) == Fit.NONE) {
                    throw new InvalidRequestException("Type error: " + args.get(i).text() + " cannot be passed as argument " + i
                            + " of function " + qualified(name) + " of type " + only.argTypes().get(i).cqlName());
                }
            }
            return only;
        }
        List<Function> compatible = new ArrayList<>();
        for (Function f : overloads) {
            if (receiver != null && Fit.of(f.returnType(), receiver) == Fit.NONE) continue;
            Fit fit = fit(f, args);
            if (fit == Fit.EXACT) return f;
            if (fit == Fit.WEAK) compatible.add(f);
        }
        if (compatible.isEmpty()) {
            throw new InvalidRequestException("Invalid call to function " + name + ", none of its type signatures match (known type signatures: "
                    + signatures(overloads) + ")");
        }
        if (compatible.size() > 1) {
            throw new InvalidRequestException("Ambiguous call to function " + name + " (can be matched by following signatures: "
                    + signatures(compatible) + "): use type casts to disambiguate");
        }
        return compatible.get(0);
    }

    /** The overload whose argument types are exactly {@code argTypes} (frozen-insensitive). */
    static Function resolve(String name, List<CqlType> argTypes) {
        for (Function f : overloads(name)) {
            if (f.argTypes().size() != argTypes.size()) continue;
            boolean match = true;
            for (int i = 0; i < argTypes.size() && match; i++) match = sameType(f.argTypes().get(i), argTypes.get(i));
            if (match) return f;
        }
        List<String> names = new ArrayList<>();
        for (CqlType t : argTypes) names.add(t.cqlName());
        throw new InvalidRequestException("Invalid call to function " + name + ", none of its type signatures match "
                + "(arguments of types " + String.join(", ", names) + ")");
    }

    /** The weakest fit of the arguments, NONE if their number differs. */
    private static Fit fit(Function f, List<Argument> args) {
        if (f.argTypes().size() != args.size()) return Fit.NONE;
        Fit all = Fit.EXACT;
        for (int i = 0; i < args.size(); i++) all = all.and(args.get(i).fit(f.argTypes().get(i)));
        return all;
    }

    /** Cassandra's "system.abs : (int) -> int, ...". */
    private static String signatures(List<Function> overloads) {
        List<String> out = new ArrayList<>();
        for (Function f : overloads) {
            List<String> args = new ArrayList<>();
            for (CqlType t : f.argTypes()) args.add(t.cqlName());
            out.add(qualified(f.name()) + " : (" + String.join(", ", args) + ") -> " + f.returnType().cqlName());
        }
        return String.join(", ", out);
    }

    static String qualified(String name) {
        return SYSTEM + "." + name;
    }

    static boolean sameType(CqlType a, CqlType b) {
        return a.freeze().equals(b.freeze()) || a.kind() == CqlType.Kind.TEXT && b.kind() == CqlType.Kind.TEXT;
    }

    /** token(k1, ..., kn) of serialized partition key components, as bigint. */
    static ByteBuffer token(List<ByteBuffer> components) {
        ByteBuffer key = PartitionKey.compose(components.toArray(new ByteBuffer[0]));
        return longValue(Murmur3.token(key));
    }

    static ByteBuffer longValue(long v) {
        return ByteBuffer.allocate(8).putLong(0, v);
    }

    /** A CQL date: days since the epoch, offset by 2^31 so that the value is unsigned. */
    private static ByteBuffer dateValue(LocalDate date) {
        return dateOfDays(date.toEpochDay());
    }

    private static ByteBuffer dateOfDays(long days) {
        return ByteBuffer.allocate(4).putInt(0, (int) (days + (1L << 31)));
    }

    /**
     * The date of a time in milliseconds as Cassandra's SimpleDateSerializer.timeInMillisToDay takes it,
     * Duration.ofMillis(millis).toDays(): whole seconds floored, then days truncated toward zero, so that -1 ms is
     * 1970-01-01 and -86400001 ms 1969-12-31.
     */
    private static ByteBuffer dateOfMillis(long millis) {
        return dateOfDays(Duration.ofMillis(millis).toDays());
    }

    private static long dateMillis(ByteBuffer date) {
        long days = (date.getInt(date.position()) & 0xFFFFFFFFL) - (1L << 31);
        return days * 86_400_000L;
    }
}

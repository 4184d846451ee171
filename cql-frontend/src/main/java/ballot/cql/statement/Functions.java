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
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Cassandra's native scalar functions (system keyspace): time and uuid functions, blob conversions, token. Each
 * overload has fixed argument and return types; a call is resolved by name and argument types.
 */
final class Functions {
    /**
     * One overload. {@code body} gets the serialized arguments, never null: a null argument, or an empty one of a type
     * whose empty value is no value ({@link CqlType#emptyIsNoValue}), makes the result null, as Cassandra's argument
     * deserializers do; the blob conversions ({@code raw}) take their argument's bytes as they are, empty included.
     */
    record Function(String name, List<CqlType> argTypes, CqlType returnType, Body body, boolean raw) {
        ByteBuffer apply(List<ByteBuffer> args) {
            for (int i = 0; i < args.size(); i++) {
                ByteBuffer arg = args.get(i);
                if (arg == null || !raw && argTypes.get(i).orNoValue(arg) == null) return null;
            }
            return body.apply(args);
        }
    }

    @FunctionalInterface
    interface Body {
        ByteBuffer apply(List<ByteBuffer> args);
    }

    private static final Map<String, List<Function>> BY_NAME = new LinkedHashMap<>();

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
        add("dateof", List.of(timeuuid), timestamp, a -> longValue(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("todate", List.of(timeuuid), date, a -> dateOfMillis(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("todate", List.of(timestamp), date, a -> dateOfMillis(a.get(0).getLong(a.get(0).position())));
        add("tounixtimestamp", List.of(timeuuid), CqlTypes.BIGINT, a -> longValue(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("tounixtimestamp", List.of(timestamp), CqlTypes.BIGINT, a -> a.get(0).duplicate());
        add("tounixtimestamp", List.of(date), CqlTypes.BIGINT, a -> longValue(dateMillis(a.get(0))));
        add("unixtimestampof", List.of(timeuuid), CqlTypes.BIGINT, a -> longValue(TimeUuids.unixMillis(TimeUuids.uuid(a.get(0)))));
        add("mintimeuuid", List.of(timestamp), timeuuid, a -> TimeUuids.bytes(TimeUuids.min(a.get(0).getLong(a.get(0).position()))));
        add("maxtimeuuid", List.of(timestamp), timeuuid, a -> TimeUuids.bytes(TimeUuids.max(a.get(0).getLong(a.get(0).position()))));

        for (String name : List.of("ascii", "bigint", "boolean", "date", "decimal", "double", "duration", "float", "inet",
                "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varint")) {
            CqlType type = CqlTypes.nativeType(name);
            addRaw(name + "asblob", List.of(type), CqlTypes.BLOB, a -> a.get(0).duplicate());
            addRaw("blobas" + name, List.of(CqlTypes.BLOB), type, a -> {
                type.validate(a.get(0));
                return a.get(0).duplicate();
            });
        }
        addRaw("varcharasblob", List.of(CqlTypes.TEXT), CqlTypes.BLOB, a -> a.get(0).duplicate());
        addRaw("blobasvarchar", List.of(CqlTypes.BLOB), CqlTypes.TEXT, a -> {
            CqlTypes.TEXT.validate(a.get(0));
            return a.get(0).duplicate();
        });

        // Cassandra 5.0's snake_case names for the same functions (CASSANDRA-18037); the old names stay.
        Map.of("current_timeuuid", "currenttimeuuid", "current_timestamp", "currenttimestamp", "current_date", "currentdate",
                "current_time", "currenttime", "min_timeuuid", "mintimeuuid", "max_timeuuid", "maxtimeuuid", "to_date", "todate",
                "to_timestamp", "totimestamp", "to_unix_timestamp", "tounixtimestamp")
                .forEach((snake, old) -> BY_NAME.put(snake, BY_NAME.get(old)));
        for (String name : List.copyOf(BY_NAME.keySet())) {
            if (name.endsWith("asblob")) BY_NAME.put(name.substring(0, name.length() - "asblob".length()) + "_as_blob", BY_NAME.get(name));
            if (name.startsWith("blobas")) BY_NAME.put("blob_as_" + name.substring("blobas".length()), BY_NAME.get(name));
        }
    }

    private Functions() {}

    private static void add(String name, List<CqlType> args, CqlType returnType, Body body) {
        register(new Function(name, args, returnType, body, false));
    }

    /** A blob conversion: its argument's bytes as they are. */
    private static void addRaw(String name, List<CqlType> args, CqlType returnType, Body body) {
        register(new Function(name, args, returnType, body, true));
    }

    private static void register(Function function) {
        BY_NAME.computeIfAbsent(function.name(), n -> new ArrayList<>()).add(function);
    }

    static boolean exists(String name) {
        return BY_NAME.containsKey(normalize(name));
    }

    static List<Function> overloads(String name) {
        List<Function> overloads = BY_NAME.get(normalize(name));
        if (overloads == null) throw new InvalidRequestException("Unknown function '" + name + "'");
        return overloads;
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

    static boolean sameType(CqlType a, CqlType b) {
        return a.freeze().equals(b.freeze()) || a.kind() == CqlType.Kind.TEXT && b.kind() == CqlType.Kind.TEXT;
    }

    private static String normalize(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith("system.") ? lower.substring("system.".length()) : lower;
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

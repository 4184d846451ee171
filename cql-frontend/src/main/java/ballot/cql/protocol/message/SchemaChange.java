package ballot.cql.protocol.message;

import java.util.List;

/**
 * A schema object was created, altered or dropped: the result of a DDL statement, and (wrapped in
 * {@link SchemaChangeEvent}) the event pushed to registered clients (native_protocol_v5.spec §4.2.6). An index
 * change is reported as a change of its table.
 *
 * @param name the table, type, function or aggregate name; empty for a keyspace
 * @param argumentTypes the CQL argument types of a function or aggregate; empty otherwise
 */
public record SchemaChange(Change change, Target target, String keyspace, String name, List<String> argumentTypes)
        implements Result {
    public enum Change { CREATED, UPDATED, DROPPED }

    public enum Target { KEYSPACE, TABLE, TYPE, FUNCTION, AGGREGATE }

    public SchemaChange {
        argumentTypes = List.copyOf(argumentTypes);
        boolean named = target != Target.KEYSPACE;
        if (named == name.isEmpty()) throw new IllegalArgumentException(target + " change with name '" + name + "'");
        boolean routine = target == Target.FUNCTION || target == Target.AGGREGATE;
        if (!routine && !argumentTypes.isEmpty())
            throw new IllegalArgumentException(target + " change with argument types " + argumentTypes);
    }

    public static SchemaChange keyspace(Change change, String keyspace) {
        return new SchemaChange(change, Target.KEYSPACE, keyspace, "", List.of());
    }

    public static SchemaChange table(Change change, String keyspace, String table) {
        return new SchemaChange(change, Target.TABLE, keyspace, table, List.of());
    }

    public static SchemaChange type(Change change, String keyspace, String type) {
        return new SchemaChange(change, Target.TYPE, keyspace, type, List.of());
    }

    public static SchemaChange function(Change change, String keyspace, String function, List<String> argumentTypes) {
        return new SchemaChange(change, Target.FUNCTION, keyspace, function, argumentTypes);
    }

    public static SchemaChange aggregate(Change change, String keyspace, String aggregate, List<String> argumentTypes) {
        return new SchemaChange(change, Target.AGGREGATE, keyspace, aggregate, argumentTypes);
    }

    @Override
    public int kind() {
        return 0x0005;
    }
}

package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.type.CqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects, while a statement is prepared, what each bind marker binds to: the receiver's name and type, as the
 * PREPARED result describes them. Markers are numbered by the parser in order of appearance. A statement may add
 * hidden markers after them ({@link #addHidden}): values it binds itself at execution, which clients neither see nor
 * send.
 */
final class Markers {
    /** How many markers the client binds: the first ones. */
    private final int visible;
    private ColumnSpec[] specs;
    private String[] receivers;
    /** Computed once preparation is over; statements ask for it on every execution. */
    private volatile List<String> nameList;

    Markers(int count) {
        visible = count;
        specs = new ColumnSpec[count];
        receivers = new String[count];
    }

    /** Adds a hidden marker, after every other one, and returns its index; only while preparing. */
    int addHidden() {
        specs = Arrays.copyOf(specs, specs.length + 1);
        receivers = Arrays.copyOf(receivers, receivers.length + 1);
        return specs.length - 1;
    }

    /** Records marker {@code index} as binding {@code receiver}; {@code name} is the marker's :name or null. */
    void bind(int index, String name, ColumnSpec receiver) {
        if (specs[index] != null && !specs[index].type().equals(receiver.type())) {
            throw new InvalidRequestException("Bind marker " + index + " is used for both " + specs[index].type()
                    + " and " + receiver.type());
        }
        specs[index] = name == null ? receiver : new ColumnSpec(receiver.keyspace(), receiver.table(), name, receiver.type());
        receivers[index] = receiver.name();
        nameList = null;
    }

    /** The name of what marker {@code index} binds (the column name for {@code k = :key}). */
    String receiverName(int index) {
        return receivers[index];
    }

    /** How many markers the client binds; hidden ones are numbered from there. */
    int count() {
        return visible;
    }

    /** The spec of every marker the client binds; fails if one was never given a receiver (a bug in preparation). */
    List<ColumnSpec> specs() {
        for (int i = 0; i < specs.length; i++) {
            if (specs[i] == null) throw new IllegalStateException("bind marker " + i + " has no receiver");
        }
        return List.copyOf(Arrays.asList(specs).subList(0, visible));
    }

    /**
     * The name each marker's value goes by when a client sends values by name: its :name, or for {@code ?} the name
     * PREPARED gives the marker (its receiver's: the column for {@code k = ?}), which is what Cassandra matches names
     * against.
     */
    List<String> names() {
        List<String> list = nameList;
        if (list == null) {
            List<String> byName = new ArrayList<>(visible);
            for (int i = 0; i < visible; i++) byName.add(specs[i] == null ? null : specs[i].name()); // a :name marker's spec has its name
            nameList = list = java.util.Collections.unmodifiableList(byName);
        }
        return list;
    }

    static ColumnSpec spec(String keyspace, String table, String name, CqlType type) {
        return new ColumnSpec(keyspace, table, name, type);
    }
}

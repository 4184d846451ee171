package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.QueryOptions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values bound to a statement's markers for one execution, in marker order. Positional values are taken as they
 * are; named values are matched to markers by name ({@link Markers#names}: a {@code ?} goes by its column's name, and
 * a name used twice binds the same value).
 */
final class Bindings {
    static final Bindings NONE = new Bindings(List.of());
    private static final String WRONG_COUNT = "Invalid amount of bind variables";

    private final List<ByteBuffer> values;

    private Bindings(List<ByteBuffer> values) {
        this.values = values;
    }

    static Bindings of(List<ByteBuffer> values, List<String> valueNames, List<String> markerNames) {
        if (valueNames == null) {
            if (values.size() != markerNames.size()) {
                throw new InvalidRequestException(WRONG_COUNT);
            }
            return new Bindings(values);
        }
        Map<String, ByteBuffer> byName = new HashMap<>();
        for (int i = 0; i < valueNames.size(); i++) byName.put(valueNames.get(i).toLowerCase(java.util.Locale.ROOT), values.get(i));
        List<ByteBuffer> ordered = new ArrayList<>(markerNames.size());
        for (String name : markerNames) {
            if (name == null) throw new InvalidRequestException("Named values were sent for a statement whose markers have no names");
            ByteBuffer value = byName.containsKey(name) ? byName.get(name) : byName.get(name.toLowerCase(java.util.Locale.ROOT));
            if (value == null && !byName.containsKey(name) && !byName.containsKey(name.toLowerCase(java.util.Locale.ROOT))) {
                throw new InvalidRequestException(WRONG_COUNT); // as in Cassandra, a marker without a value is one value too few
            }
            ordered.add(value);
        }
        return new Bindings(ordered);
    }

    /** These values followed by the values of the statement's hidden markers ({@link Markers#addHidden}), in order. */
    Bindings withHidden(List<ByteBuffer> hidden) {
        List<ByteBuffer> all = new ArrayList<>(values.size() + hidden.size());
        all.addAll(values);
        all.addAll(hidden);
        return new Bindings(all);
    }

    /** The value of marker {@code index}: null for a null value, {@link QueryOptions#UNSET} for an unset one. */
    ByteBuffer get(int index) {
        return values.get(index);
    }

    static boolean isUnset(ByteBuffer value) {
        return value == QueryOptions.UNSET;
    }
}

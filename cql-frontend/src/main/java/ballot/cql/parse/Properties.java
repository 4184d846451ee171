package ballot.cql.parse;

import ballot.cql.error.SyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code WITH a = x AND b = {...}} options of a DDL statement. Values are the constant's text (String) or a map
 * of strings; property names are lower-case. Table statements also carry CLUSTERING ORDER and COMPACT STORAGE.
 */
public record Properties(Map<String, Object> values, List<Ordering> clusteringOrder, boolean compactStorage) {
    public static final Properties NONE = new Properties(Map.of(), List.of(), false);

    public record Ordering(String column, boolean descending) {}

    public Properties {
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A boolean property's value, as Cassandra reads one: 1, true or yes; 0, false or no; in any case. */
    public static boolean parseBoolean(String name, Object value) {
        switch (value.toString().toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes" -> {
                return true;
            }
            case "0", "false", "no" -> {
                return false;
            }
            default -> throw new SyntaxException("Invalid boolean value " + value + " for '" + name + "'. Positive values can be '1', "
                    + "'true' or 'yes'. Negative values can be '0', 'false' or 'no'.");
        }
    }
}

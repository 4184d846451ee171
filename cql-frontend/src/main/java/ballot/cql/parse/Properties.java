package ballot.cql.parse;

import java.util.LinkedHashMap;
import java.util.List;
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
}

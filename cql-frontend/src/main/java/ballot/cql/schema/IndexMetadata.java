package ballot.cql.schema;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A storage-attached index of a table, as system_schema.indexes shows it: kind CUSTOM and {@code options} with
 * {@code class_name} (as the CREATE statement spelled it), {@code target} and the analyzer options. {@code id} is fresh
 * at every CREATE INDEX and names the index's storage, so an index dropped and created again under the same name
 * never sees the old one's entries; it is not part of what Cassandra shows.
 */
public record IndexMetadata(String name, UUID id, Map<String, String> options) {
    public static final String KIND = "CUSTOM";
    public static final String CLASS_NAME = "class_name";
    public static final String TARGET = "target";

    public IndexMetadata {
        options = Collections.unmodifiableMap(new TreeMap<>(options));
        if (!options.containsKey(CLASS_NAME) || !options.containsKey(TARGET))
            throw new IllegalArgumentException("index " + name + " without class_name or target: " + options);
    }

    public IndexTarget target() {
        return IndexTarget.parse(options.get(TARGET));
    }

    public String className() {
        return options.get(CLASS_NAME);
    }

    /** The options besides class_name and target: the analyzer's. */
    public Map<String, String> analyzerOptions() {
        Map<String, String> rest = new TreeMap<>(options);
        rest.remove(CLASS_NAME);
        rest.remove(TARGET);
        return rest;
    }

    /** Cassandra's {@code equalsWithoutName}: the same kind and options, so the same index under another name. */
    public boolean sameDefinition(IndexMetadata other) {
        return options.equals(other.options);
    }
}

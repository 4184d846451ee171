package ballot.cql.schema;

import ballot.cql.error.ConfigurationException;
import ballot.cql.error.SyntaxException;
import ballot.cql.parse.Properties;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The options of a table (WITH ... in CREATE/ALTER TABLE) with Cassandra 5.0's defaults, as system_schema.tables
 * shows them. Ballot honours {@code default_time_to_live} and {@code gc_grace_seconds}; the others are validated,
 * stored and reported so that tools and drivers see what they expect.
 */
public final class TableParams {
    /** How a property's text from CQL becomes its stored value, and what it is by default. */
    private record Option(Object defaultValue, Function<Object, Object> parser) {}

    private static final Map<String, Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("additional_write_policy", new Option("99p", v -> SpeculativeRetry.normalize("additional_write_policy", (String) text(v))));
        OPTIONS.put("allow_auto_snapshot", new Option(true, v -> bool("allow_auto_snapshot", v)));
        OPTIONS.put("bloom_filter_fp_chance", new Option(0.01, TableParams::bloomFilterFpChance));
        OPTIONS.put("caching", new Option(Map.of("keys", "ALL", "rows_per_partition", "NONE"), v -> caching(map("caching", v))));
        OPTIONS.put("cdc", new Option(false, v -> bool("cdc", v)));
        OPTIONS.put("comment", new Option("", TableParams::text));
        OPTIONS.put("compaction", new Option(Map.of(
                "class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy",
                "max_threshold", "32", "min_threshold", "4"), v -> compaction(map("compaction", v))));
        OPTIONS.put("compression", new Option(Map.of(
                "chunk_length_in_kb", "16", "class", "org.apache.cassandra.io.compress.LZ4Compressor"),
                v -> compression(map("compression", v))));
        OPTIONS.put("crc_check_chance", new Option(1.0, TableParams::crcCheckChance));
        OPTIONS.put("default_time_to_live", new Option(0, TableParams::defaultTimeToLive));
        // Accepted and ignored, as Cassandra 5.0.9 does: a table's extensions are never set from CQL
        OPTIONS.put("extensions", new Option(Map.of(), v -> {
            map("extensions", v);
            return Map.of();
        }));
        OPTIONS.put("gc_grace_seconds", new Option(864000, v -> nonNegative("gc_grace_seconds", v)));
        OPTIONS.put("incremental_backups", new Option(true, v -> bool("incremental_backups", v)));
        OPTIONS.put("max_index_interval", new Option(2048, v -> nonNegative("max_index_interval", v)));
        OPTIONS.put("memtable", new Option("default", v -> memtable((String) text(v))));
        OPTIONS.put("memtable_flush_period_in_ms", new Option(0, v -> nonNegative("memtable_flush_period_in_ms", v)));
        OPTIONS.put("min_index_interval", new Option(128, TableParams::minIndexInterval));
        OPTIONS.put("read_repair", new Option("BLOCKING", v -> readRepair((String) text(v))));
        OPTIONS.put("speculative_retry", new Option("99p", v -> SpeculativeRetry.normalize("speculative_retry", (String) text(v))));
    }

    public static final TableParams DEFAULT = new TableParams(defaults());

    private final Map<String, Object> values;
    private final int defaultTimeToLive;
    private final int gcGraceSeconds;

    private TableParams(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(values);
        this.defaultTimeToLive = ((Number) values.get("default_time_to_live")).intValue();
        this.gcGraceSeconds = ((Number) values.get("gc_grace_seconds")).intValue();
    }

    private static Map<String, Object> defaults() {
        Map<String, Object> values = new LinkedHashMap<>();
        OPTIONS.forEach((name, option) -> values.put(name, option.defaultValue()));
        return values;
    }

    /**
     * The options of a new table: {@link #DEFAULT} with {@code properties}, where a table compacted by levels gets
     * Cassandra's bloom filter default for it (0.1) unless one is given. An ALTER keeps the table's.
     */
    public static TableParams ofNewTable(Map<String, Object> properties) {
        TableParams params = DEFAULT.with(properties);
        Object compaction = ((Map<?, ?>) params.get("compaction")).get("class");
        if (!properties.containsKey("bloom_filter_fp_chance") && LEVELED.equals(compaction)) {
            return params.with(Map.of("bloom_filter_fp_chance", "0.1"));
        }
        return params;
    }

    private static final String LEVELED = "org.apache.cassandra.db.compaction.LeveledCompactionStrategy";

    /** A copy with the given properties (as parsed: strings or maps of strings) applied over these. */
    public TableParams with(Map<String, Object> properties) {
        Map<String, Object> next = new LinkedHashMap<>(values);
        properties.forEach((name, value) -> {
            Option option = OPTIONS.get(name);
            if (option == null) throw new SyntaxException("Unknown property '" + name + "'");
            next.put(name, option.parser().apply(value));
        });
        int min = (Integer) next.get("min_index_interval");
        int max = (Integer) next.get("max_index_interval");
        if (max < min) {
            throw new ConfigurationException("max_index_interval must be greater than or equal to min_index_interval (" + min + ") (got " + max + ")");
        }
        return new TableParams(next);
    }

    /** Rebuilds params from stored values (already validated when they were set). */
    public static TableParams fromStored(Map<String, Object> stored) {
        Map<String, Object> values = defaults();
        stored.forEach((name, value) -> {
            if (values.containsKey(name)) values.put(name, value);
        });
        return new TableParams(values);
    }

    public Map<String, Object> values() {
        return values;
    }

    public Object get(String name) {
        return values.get(name);
    }

    public int defaultTimeToLive() {
        return defaultTimeToLive;
    }

    public int gcGraceSeconds() {
        return gcGraceSeconds;
    }

    public String comment() {
        return (String) values.get("comment");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableParams other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    private static Object text(Object value) {
        if (value instanceof String s) return s;
        throw new SyntaxException("Expected a string but got a map: " + value);
    }

    private static Object bool(String name, Object value) {
        return Properties.parseBoolean(name, text(value));
    }

    private static Object nonNegative(String name, Object value) {
        try {
            int n = Integer.parseInt(text(value).toString());
            if (n < 0) throw new ConfigurationException(name + " must be greater than or equal to 0 (got " + n + ")");
            return n;
        } catch (NumberFormatException e) {
            throw new SyntaxException("Invalid integer value " + value + " for '" + name + "'");
        }
    }

    /** The longest default_time_to_live Cassandra takes: 20 years. */
    private static final int MAX_DEFAULT_TIME_TO_LIVE = 630720000;
    /** The smallest false positive chance Cassandra's bloom filters can give (its BloomCalculations). */
    private static final double MIN_BLOOM_FILTER_FP_CHANCE = 6.71E-5;

    private static Object defaultTimeToLive(Object value) {
        int ttl = (Integer) nonNegative("default_time_to_live", value);
        if (ttl > MAX_DEFAULT_TIME_TO_LIVE) {
            throw new ConfigurationException("default_time_to_live must be less than or equal to " + MAX_DEFAULT_TIME_TO_LIVE + " (got " + ttl + ")");
        }
        return ttl;
    }

    private static Object minIndexInterval(Object value) {
        int interval = (Integer) nonNegative("min_index_interval", value);
        if (interval < 1) throw new ConfigurationException("min_index_interval must be greater than or equal to 1 (got " + interval + ")");
        return interval;
    }

    private static Object bloomFilterFpChance(Object value) {
        double chance = number("bloom_filter_fp_chance", value);
        if (chance <= MIN_BLOOM_FILTER_FP_CHANCE || chance > 1) {
            throw new ConfigurationException("bloom_filter_fp_chance must be larger than " + MIN_BLOOM_FILTER_FP_CHANCE
                    + " and less than or equal to 1.0 (got " + chance + ")");
        }
        return chance;
    }

    private static Object crcCheckChance(Object value) {
        double chance = number("crc_check_chance", value);
        if (chance < 0 || chance > 1) {
            throw new ConfigurationException("crc_check_chance must be larger than or equal to 0 and smaller than or equal to 1.0 (got " + chance + ")");
        }
        return chance;
    }

    private static double number(String name, Object value) {
        try {
            return Double.parseDouble(text(value).toString());
        } catch (NumberFormatException e) {
            throw new SyntaxException("Invalid double value " + value + " for '" + name + "'");
        }
    }

    /** Ballot has one memtable configuration, Cassandra 5.0's {@code default}. */
    private static Object memtable(String value) {
        if (!value.equals("default")) throw new ConfigurationException("Memtable configuration \"" + value + "\" not found.");
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> map(String name, Object value) {
        if (value instanceof Map<?, ?> m) return Collections.unmodifiableMap(new LinkedHashMap<>((Map<String, String>) m));
        throw new SyntaxException("Invalid value for property '" + name + "': expected a map, got " + value);
    }

    private static Object compaction(Map<String, String> options) {
        String cls = options.get("class");
        if (cls == null) throw new ConfigurationException("Missing sub-option 'class' for the 'compaction' option.");
        Map<String, String> normalized = new LinkedHashMap<>(options);
        if (!cls.contains(".")) normalized.put("class", "org.apache.cassandra.db.compaction." + cls);
        String simple = normalized.get("class").substring(normalized.get("class").lastIndexOf('.') + 1);
        switch (simple) {
            // The strategies that take thresholds show Cassandra's defaults for them; the unified one takes none.
            case "SizeTieredCompactionStrategy", "LeveledCompactionStrategy", "TimeWindowCompactionStrategy" -> {
                normalized.putIfAbsent("max_threshold", "32");
                normalized.putIfAbsent("min_threshold", "4");
            }
            case "UnifiedCompactionStrategy" -> { }
            default -> throw new ConfigurationException("Unable to find compaction strategy class '" + normalized.get("class") + "'");
        }
        return Collections.unmodifiableMap(normalized);
    }

    /**
     * As Cassandra's CachingParams: only {@code keys} (ALL or NONE) and {@code rows_per_partition} (ALL, NONE or a
     * count; 0 is NONE), each NONE when left out.
     */
    private static Object caching(Map<String, String> options) {
        Map<String, String> rest = new LinkedHashMap<>(options);
        String keys = rest.remove("keys");
        String rows = rest.remove("rows_per_partition");
        if (!rest.isEmpty()) {
            throw new ConfigurationException("Invalid caching sub-options " + rest.keySet() + ": only 'keys' and 'rows_per_partition' are allowed");
        }
        Map<String, String> normalized = new LinkedHashMap<>();
        if (keys == null || keys.equalsIgnoreCase("NONE")) normalized.put("keys", "NONE");
        else if (keys.equalsIgnoreCase("ALL")) normalized.put("keys", "ALL");
        else throw new ConfigurationException("Invalid value '" + keys + "' for caching sub-option 'keys': only 'ALL' and 'NONE' are allowed");
        if (rows == null || rows.equalsIgnoreCase("NONE")) normalized.put("rows_per_partition", "NONE");
        else if (rows.equalsIgnoreCase("ALL")) normalized.put("rows_per_partition", "ALL");
        else if (!rows.isEmpty() && rows.chars().allMatch(Character::isDigit)) {
            int count;
            try {
                count = Integer.parseInt(rows);
            } catch (NumberFormatException e) {
                throw invalidRows(rows);
            }
            normalized.put("rows_per_partition", count == 0 ? "NONE" : Integer.toString(count));
        } else {
            throw invalidRows(rows);
        }
        return Collections.unmodifiableMap(normalized);
    }

    private static ConfigurationException invalidRows(String rows) {
        return new ConfigurationException("Invalid value '" + rows + "' for caching sub-option 'rows_per_partition': "
                + "only 'ALL', 'NONE', and integer values are allowed");
    }

    /**
     * As Cassandra 5.0's CompressionParams: an empty map, or {@code enabled} other than true and nothing else, turns
     * compression off; else a class of Cassandra's compressors, the options common to all ({@code chunk_length_in_kb},
     * a power of 2, {@code enabled}, {@code min_compress_ratio}) and the compressor's own.
     */
    private static Object compression(Map<String, String> options) {
        if (options.isEmpty()) return Map.of("enabled", "false");
        if (options.containsKey("enabled") && !Boolean.parseBoolean(options.get("enabled"))) {
            if (options.size() > 1) throw new ConfigurationException("If the 'enabled' option is set to false no other options must be specified");
            return Map.of("enabled", "false");
        }
        String cls = options.get("class");
        if (cls == null) throw new ConfigurationException("Missing sub-option 'class' for the 'compression' option.");
        if (!cls.contains(".")) cls = COMPRESSORS + cls;
        Set<String> own = COMPRESSOR_OPTIONS.get(cls);
        if (own == null) throw new ConfigurationException("Could not create Compression for type " + cls);
        new TreeSet<>(options.keySet()).stream().filter(o -> !COMMON_COMPRESSION_OPTIONS.contains(o) && !own.contains(o)).findFirst()
                .ifPresent(o -> {
                    throw new ConfigurationException("Unknown compression options " + o);
                });
        Map<String, String> normalized = new LinkedHashMap<>(options);
        normalized.put("class", cls);
        if (normalized.containsKey("chunk_length_in_kb")) checkChunkLength(normalized.get("chunk_length_in_kb"));
        normalized.putIfAbsent("chunk_length_in_kb", "16");
        return Collections.unmodifiableMap(normalized);
    }

    private static void checkChunkLength(String value) {
        int kb;
        try {
            kb = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ConfigurationException("Invalid value for chunk_length_in_kb");
        }
        if (kb <= 0) throw new ConfigurationException("Invalid negative or null chunk_length_in_kb");
        if (Integer.bitCount(kb) != 1) throw new ConfigurationException("chunk_length_in_kb must be a power of 2");
    }

    private static final String COMPRESSORS = "org.apache.cassandra.io.compress.";
    private static final Set<String> COMMON_COMPRESSION_OPTIONS = Set.of("class", "chunk_length_in_kb", "enabled", "min_compress_ratio");
    /** Cassandra's compressors and the options each takes besides the common ones. */
    private static final Map<String, Set<String>> COMPRESSOR_OPTIONS = Map.of(
            COMPRESSORS + "LZ4Compressor", Set.of("lz4_compressor_type", "lz4_high_compressor_level"),
            COMPRESSORS + "ZstdCompressor", Set.of("compression_level"),
            COMPRESSORS + "SnappyCompressor", Set.of(),
            COMPRESSORS + "DeflateCompressor", Set.of(),
            COMPRESSORS + "NoopCompressor", Set.of());

    private static Object readRepair(String value) {
        String upper = value.toUpperCase(Locale.ROOT);
        if (upper.equals("BLOCKING") || upper.equals("NONE")) return upper;
        throw new ConfigurationException("Invalid value '" + value + "' for 'read_repair': expected BLOCKING or NONE");
    }
}

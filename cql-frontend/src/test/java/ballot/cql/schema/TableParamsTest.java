package ballot.cql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.ConfigurationException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Table options as Cassandra 5.0.9 stores them in system_schema.tables (compared on a live node). */
class TableParamsTest {
    @Test
    void cachingLeftOutSubOptionsAreNone() {
        assertThat(TableParams.ofNewTable(Map.of("caching", Map.of("keys", "NONE"))).get("caching"))
                .isEqualTo(Map.of("keys", "NONE", "rows_per_partition", "NONE"));
        assertThat(TableParams.DEFAULT.with(Map.of("caching", Map.of("rows_per_partition", "10"))).get("caching"))
                .isEqualTo(Map.of("keys", "NONE", "rows_per_partition", "10"));
        assertThat(TableParams.DEFAULT.with(Map.of("caching", Map.of("keys", "all", "rows_per_partition", "0"))).get("caching"))
                .isEqualTo(Map.of("keys", "ALL", "rows_per_partition", "NONE"));
    }

    @Test
    void cachingRefusesWhatCassandraRefuses() {
        assertThatThrownBy(() -> TableParams.DEFAULT.with(Map.of("caching", Map.of("keys", "SOME"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Invalid value 'SOME' for caching sub-option 'keys': only 'ALL' and 'NONE' are allowed");
        assertThatThrownBy(() -> TableParams.DEFAULT.with(Map.of("caching", Map.of("rows_per_partition", "x"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Invalid value 'x' for caching sub-option 'rows_per_partition': only 'ALL', 'NONE', and integer values are allowed");
        assertThatThrownBy(() -> TableParams.DEFAULT.with(Map.of("caching", Map.of("foo", "ALL"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Invalid caching sub-options [foo]: only 'keys' and 'rows_per_partition' are allowed");
    }

    @Test
    void compactionByLevelsOrTimeWindowsShowsThresholdsAndANewLeveledTableItsBloomFilterDefault() {
        TableParams leveled = TableParams.ofNewTable(Map.of("compaction", Map.of("class", "LeveledCompactionStrategy")));
        assertThat(leveled.get("compaction")).isEqualTo(Map.of("class", "org.apache.cassandra.db.compaction.LeveledCompactionStrategy",
                "max_threshold", "32", "min_threshold", "4"));
        assertThat(leveled.get("bloom_filter_fp_chance")).isEqualTo(0.1);
        assertThat(TableParams.ofNewTable(Map.of("compaction", Map.of("class", "LeveledCompactionStrategy"), "bloom_filter_fp_chance", "0.05"))
                .get("bloom_filter_fp_chance")).isEqualTo(0.05);
        assertThat(TableParams.ofNewTable(Map.of("compaction", Map.of("class", "TimeWindowCompactionStrategy"))).get("compaction"))
                .isEqualTo(Map.of("class", "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy", "max_threshold", "32",
                        "min_threshold", "4"));
        assertThat(TableParams.ofNewTable(Map.of("compaction", Map.of("class", "UnifiedCompactionStrategy"))).get("compaction"))
                .isEqualTo(Map.of("class", "org.apache.cassandra.db.compaction.UnifiedCompactionStrategy"));
        // An ALTER to levels keeps the table's bloom filter chance.
        assertThat(TableParams.DEFAULT.with(Map.of("compaction", Map.of("class", "LeveledCompactionStrategy"))).get("bloom_filter_fp_chance"))
                .isEqualTo(0.01);
    }

    @Test
    void speculativeRetryAndAdditionalWritePolicyAreReadAndStoredAsCassandraDoes() {
        for (String option : new String[] {"speculative_retry", "additional_write_policy"}) {
            Map<String, String> stored = Map.of("none", "NEVER", "always", "ALWAYS", "99.50p", "99.5p", "99.5PERCENTILE", "99.5p",
                    "10.5ms", "10ms", "max(10ms, 90p)", "MAX(90p,10ms)", "MIN(99p,50ms)", "MIN(99p,50ms)");
            stored.forEach((given, shown) -> assertThat(TableParams.DEFAULT.with(Map.of(option, given)).get(option)).isEqualTo(shown));
            assertThatThrownBy(() -> TableParams.DEFAULT.with(Map.of(option, "bogus"))).isInstanceOf(ConfigurationException.class)
                    .hasMessage("Invalid value bogus for option '" + option + "'");
            assertThatThrownBy(() -> TableParams.DEFAULT.with(Map.of(option, "100p"))).isInstanceOf(ConfigurationException.class)
                    .hasMessage("Invalid value 100p for PERCENTILE option '" + option + "': must be between (0.0 and 100.0)");
        }
    }

    @Test
    void rangesAndClassesAreCheckedAsCassandraChecksThem() {
        assertRefused(Map.of("default_time_to_live", "700000000"), "default_time_to_live must be less than or equal to 630720000 (got 700000000)");
        assertRefused(Map.of("min_index_interval", "0"), "min_index_interval must be greater than or equal to 1 (got 0)");
        assertRefused(Map.of("max_index_interval", "64"), "max_index_interval must be greater than or equal to min_index_interval (128) (got 64)");
        assertRefused(Map.of("bloom_filter_fp_chance", "2"), "bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to 1.0 (got 2.0)");
        assertRefused(Map.of("crc_check_chance", "1.5"), "crc_check_chance must be larger than or equal to 0 and smaller than or equal to 1.0 (got 1.5)");
        assertRefused(Map.of("memtable", "trie"), "Memtable configuration \"trie\" not found.");
        assertRefused(Map.of("compression", Map.of("class", "Bogus")), "Could not create Compression for type org.apache.cassandra.io.compress.Bogus");
        assertRefused(Map.of("compaction", Map.of("class", "Bogus")), "Unable to find compaction strategy class 'org.apache.cassandra.db.compaction.Bogus'");
        assertThat(TableParams.DEFAULT.with(Map.of("compression", Map.of("class", "ZstdCompressor"))).get("compression"))
                .isEqualTo(Map.of("class", "org.apache.cassandra.io.compress.ZstdCompressor", "chunk_length_in_kb", "16"));
    }

    @Test
    void extensionsFromCqlAreIgnoredAsCassandraIgnoresThem() {
        assertThat(TableParams.DEFAULT.with(Map.of("extensions", Map.of("a", "b"))).get("extensions")).isEqualTo(Map.of());
    }

    @Test
    void compressionTakesTheCommonOptionsAndItsCompressorsOwn() {
        assertRefused(Map.of("compression", Map.of("sstable_compression", "LZ4Compressor")), "Missing sub-option 'class' for the 'compression' option.");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "chunk_length_kb", "32")), "Unknown compression options chunk_length_kb");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "compression_level", "5")), "Unknown compression options compression_level");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "3", "foo", "1")), "Unknown compression options foo");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "3")), "chunk_length_in_kb must be a power of 2");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "0")), "Invalid negative or null chunk_length_in_kb");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "x")), "Invalid value for chunk_length_in_kb");
        assertRefused(Map.of("compression", Map.of("class", "LZ4Compressor", "enabled", "maybe")),
                "If the 'enabled' option is set to false no other options must be specified");
        assertThat(TableParams.DEFAULT.with(Map.of("compression", Map.of("class", "ZstdCompressor", "compression_level", "5"))).get("compression"))
                .isEqualTo(Map.of("class", "org.apache.cassandra.io.compress.ZstdCompressor", "chunk_length_in_kb", "16", "compression_level", "5"));
    }

    private static void assertRefused(Map<String, Object> options, String message) {
        assertThatThrownBy(() -> TableParams.DEFAULT.with(options)).isInstanceOf(ConfigurationException.class).hasMessage(message);
    }
}

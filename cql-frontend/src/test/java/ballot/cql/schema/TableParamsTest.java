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
}

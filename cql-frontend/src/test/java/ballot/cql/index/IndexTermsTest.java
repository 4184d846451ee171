package ballot.cql.index;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.Row;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Index terms: order-preserving encodings of what a target sees, analyzed, from writes and from merged rows alike. */
class IndexTermsTest {
    private static final int NOW = 1_700_000_000;
    private final TableMetadata table = SchemaDefinitions.table("ks",
            "CREATE TABLE t (k int, c int, v int, s text static, w text, m map<text, int>, tags set<text>, PRIMARY KEY (k, c))", UUID.randomUUID());

    private IndexTerms terms(String target, Map<String, String> analyzer) {
        Map<String, String> options = new java.util.TreeMap<>(analyzer);
        options.put("class_name", "sai");
        options.put("target", target);
        return IndexTerms.of(table, new IndexMetadata("i", UUID.randomUUID(), options));
    }

    private static ByteBuffer integer(int v) {
        return CqlTypes.INT.decompose(v);
    }

    private Row row(int c, Cell... cells) {
        return new Row(Clustering.of(integer(c)), LivenessInfo.EMPTY, DeletionTime.LIVE, List.of(cells), List.of());
    }

    @Test
    void termsOfNumbersSortAsTheirValues() {
        IndexTerms v = terms("v", Map.of());
        int[] values = {Integer.MIN_VALUE, -5, -1, 0, 1, 7, Integer.MAX_VALUE};
        for (int i = 1; i < values.length; i++) {
            assertThat(Arrays.compareUnsigned(v.term(integer(values[i - 1])), v.term(integer(values[i])))).as("%d < %d", values[i - 1], values[i])
                    .isNegative();
        }
        IndexExpression between = new IndexExpression("i", v.term(integer(-1)), false, v.term(integer(7)), true);
        assertThat(between.matches(v.term(integer(-1)))).isFalse();
        assertThat(between.matches(v.term(integer(0)))).isTrue();
        assertThat(between.matches(v.term(integer(7)))).isTrue();
        assertThat(between.matches(v.term(integer(8)))).isFalse();
    }

    @Test
    void writesIndexEveryValueAndReadsOnlyLiveOnes() {
        IndexTerms v = terms("v", Map.of());
        int column = table.column("v").id();
        Row expired = row(1, Cell.expiring(column, null, integer(5), 10, 1, NOW - 10));
        assertThat(v.ofWrite(new ByteBuffer[] {integer(1)}, expired)).hasSize(1);
        assertThat(v.ofLive(new ByteBuffer[] {integer(1)}, expired, null, NOW)).isEmpty();
        Row deleted = row(1, Cell.tombstone(column, null, 10, NOW));
        assertThat(v.ofWrite(new ByteBuffer[] {integer(1)}, deleted)).isEmpty();
        assertThat(terms("c", Map.of()).ofWrite(new ByteBuffer[] {integer(1)}, deleted)).isEmpty();
        assertThat(terms("c", Map.of()).ofWrite(new ByteBuffer[] {integer(1)}, row(3, Cell.live(column, null, integer(1), 1))))
                .containsExactly(terms("c", Map.of()).term(integer(3)));
    }

    @Test
    void analyzedTextMatchesWhateverTheCase() {
        IndexTerms w = terms("w", Map.of("case_sensitive", "false", "normalize", "true"));
        assertThat(w.term(CqlTypes.TEXT.decompose("HeLLo"))).isEqualTo(w.term(CqlTypes.TEXT.decompose("hello")));
        IndexTerms ascii = terms("w", Map.of("ascii", "true"));
        assertThat(ascii.term(CqlTypes.TEXT.decompose("café"))).isEqualTo(ascii.term(CqlTypes.TEXT.decompose("cafe")));
        assertThat(terms("w", Map.of()).term(CqlTypes.TEXT.decompose("A"))).isNotEqualTo(terms("w", Map.of()).term(CqlTypes.TEXT.decompose("a")));
    }

    @Test
    void collectionTargetsSeeElementsKeysAndEntries() {
        int m = table.column("m").id();
        Row row = row(1, Cell.live(m, CqlTypes.TEXT.decompose("a"), integer(1), 1), Cell.live(m, CqlTypes.TEXT.decompose("b"), integer(2), 1));
        ByteBuffer[] key = {integer(1)};
        IndexTerms keys = terms("keys(m)", Map.of());
        IndexTerms values = terms("values(m)", Map.of());
        IndexTerms entries = terms("entries(m)", Map.of());
        assertThat(keys.ofLive(key, row, null, NOW)).containsExactly(keys.term(CqlTypes.TEXT.decompose("a")), keys.term(CqlTypes.TEXT.decompose("b")));
        assertThat(values.ofLive(key, row, null, NOW)).containsExactly(values.term(integer(1)), values.term(integer(2)));
        assertThat(entries.ofLive(key, row, null, NOW)).contains(entries.entryTerm(CqlTypes.TEXT.decompose("b"), integer(2)));
        assertThat(entries.ofLive(key, row, null, NOW)).noneMatch(t -> Arrays.equals(t, entries.entryTerm(CqlTypes.TEXT.decompose("b"), integer(1))));
    }

    @Test
    void staticAndPartitionKeyTargetsSelectWholePartitions() {
        assertThat(terms("s", Map.of()).selectsPartitions()).isTrue();
        assertThat(terms("v", Map.of()).selectsPartitions()).isFalse();
        int s = table.column("s").id();
        Row staticRow = new Row(Clustering.STATIC, LivenessInfo.EMPTY, DeletionTime.LIVE, List.of(Cell.live(s, null, CqlTypes.TEXT.decompose("x"), 1)), List.of());
        IndexTerms st = terms("s", Map.of());
        assertThat(st.ofLive(new ByteBuffer[] {integer(1)}, null, staticRow, NOW)).containsExactly(st.term(CqlTypes.TEXT.decompose("x")));
        assertThat(st.ofWrite(new ByteBuffer[] {integer(1)}, row(1, Cell.live(table.column("v").id(), null, integer(1), 1)))).isEmpty();
    }
}

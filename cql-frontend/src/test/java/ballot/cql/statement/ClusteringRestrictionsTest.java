package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Clustering restrictions that mix single- and multi-column relations, answered and refused as Cassandra 5.0 does
 * (each case checked against a 5.0.9 node): a single-column slice on the first column of a multi-column slice bounds
 * its other side, EQ and IN runs of either kind fix a prefix, and conflicts get the message of the relation written
 * first.
 */
class ClusteringRestrictionsTest {
    /** Rows (c1, c2, c3) of partition 0: c1 in 0..3, c2 in 0..2, c3 in 0..1. */
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int, c1 int, c2 int, c3 int, v int, PRIMARY KEY (k, c1, c2, c3))",
            "CREATE TABLE ks.mixed (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)");

    {
        fixture.execute("UPDATE ks.t SET v = 0 WHERE k = 0 AND c1 IN (0, 1, 2, 3) AND c2 IN (0, 1, 2) AND c3 IN (0, 1)");
        fixture.execute("UPDATE ks.mixed SET v = 0 WHERE k = 0 AND c1 IN (0, 1, 2, 3) AND c2 IN (0, 1, 2)");
    }

    private List<String> rows(String table, String where) {
        return CasFixture.rows(fixture.execute("SELECT * FROM ks." + table + " WHERE k = 0 AND " + where)).stream()
                .map(ClusteringRestrictionsTest::clustering).toList();
    }

    private static String clustering(Map<String, Object> row) {
        StringBuilder out = new StringBuilder();
        for (String c : List.of("c1", "c2", "c3")) if (row.containsKey(c)) out.append(row.get(c));
        return out.toString();
    }

    private void refused(String where, String message) {
        assertThatThrownBy(() -> fixture.execute("SELECT * FROM ks.t WHERE k = 0 AND " + where))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void aSingleColumnSliceBoundsTheOtherSideOfAMultiColumnSlice() {
        assertThat(rows("t", "(c1, c2) > (2, 1) AND c1 < 3")).containsExactly("220", "221");
        assertThat(rows("t", "c1 <= 3 AND (c1, c2, c3) > (2, 2, 0)")).containsExactly("221", "300", "301", "310", "311", "320", "321");
        assertThat(rows("t", "c1 > 2 AND (c1) < (4)")).hasSize(6).allMatch(r -> r.startsWith("3"));
        assertThat(rows("t", "(c1, c2) >= (1, 2) AND c1 <= 1")).containsExactly("120", "121");
        assertThat(rows("t", "c1 = 1 AND (c2, c3) > (1, 0) AND c2 < 2")).containsExactly("111");
        assertThat(rows("t", "c1 > 2 AND (c1, c2) < (1, 0)")).isEmpty();
    }

    @Test
    void aSingleColumnSliceBoundsAMixedOrderMultiColumnSlice() {
        assertThat(rows("mixed", "(c1, c2) > (1, 1) AND c1 < 3")).containsExactly("20", "21", "22", "12");
        assertThat(rows("mixed", "c1 > 1 AND (c1, c2) <= (3, 0)")).containsExactly("30", "20", "21", "22");
    }

    @Test
    void equalityRunsOfEitherKindFixAPrefix() {
        assertThat(rows("t", "(c1) = (1) AND c2 = 2 AND c3 > 0")).containsExactly("121");
        assertThat(rows("t", "c1 = 1 AND (c2, c3) IN ((2, 1), (0, 0))")).containsExactly("100", "121");
        assertThat(rows("t", "c1 IN (1, 2) AND (c2, c3) IN ((2, 1), (0, 0))")).containsExactly("100", "121", "200", "221");
        assertThat(rows("t", "(c1, c2) IN ((1, 2), (3, 0)) AND c3 = 1")).containsExactly("121", "301");
        assertThat(rows("t", "(c1) IN ((1), (2)) AND c2 = 2 AND c3 = 0")).containsExactly("120", "220");
    }

    @Test
    void conflictsAreRefusedWithTheMessageOfTheRelationWrittenFirst() {
        refused("(c1, c2) > (1, 2) AND c1 > 1", "More than one restriction was found for the start bound on c1");
        refused("c1 > 0 AND c1 < 3 AND (c1, c2) > (1, 2)", "More than one restriction was found for the start bound on c1");
        refused("(c1, c2) < (1, 2) AND (c1) < (3)", "More than one restriction was found for the end bound on c1");
        refused("(c1, c2) > (1, 2) AND c2 < 5", "Column \"c2\" cannot be restricted by two inequalities not starting with the same column");
        refused("c1 = 1 AND (c1, c2) > (1, 2)", "c1 cannot be restricted by more than one relation if it includes an Equal");
        refused("(c1, c2) > (1, 1) AND c1 = 1", "Column \"c1\" cannot be restricted by both an equality and an inequality relation");
        refused("c1 IN (1, 2) AND (c1, c2) > (1, 2)", "c1 cannot be restricted by more than one relation if it includes a IN");
        refused("(c1, c2) IN ((1, 1)) AND c2 IN (1, 2)", "c2 cannot be restricted by more than one relation if it includes an Equal");
        refused("c1 > 0 AND c1 = 1", "Column \"c1\" cannot be restricted by both an equality and an inequality relation");
    }

    @Test
    void restrictionsPastASliceNameItsFirstColumn() {
        refused("(c1, c2) > (1, 1) AND c1 < 3 AND c3 > 1", "Clustering column \"c3\" cannot be restricted (preceding column \"c1\" is restricted by a non-EQ relation)");
        refused("c1 > 1 AND c3 = 1", "Clustering column \"c3\" cannot be restricted (preceding column \"c1\" is restricted by a non-EQ relation)");
        refused("c3 = 1 AND c2 = 1 AND c1 > 0", "PRIMARY KEY column \"c2\" cannot be restricted (preceding column \"c1\" is restricted by a non-EQ relation)");
        refused("c1 > 1 AND (c2, c3) > (1, 1)", "Clustering column \"c2\" cannot be restricted (preceding column \"c1\" is restricted by a non-EQ relation)");
        refused("(c1) = (1) AND c3 > 0", "PRIMARY KEY column \"c3\" cannot be restricted as preceding column \"c2\" is not restricted");
        assertThat(rows("t", "(c1, c2) > (2, 1) AND c1 < 3 AND c3 = 1 ALLOW FILTERING")).containsExactly("221");
    }
}

package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Relations on filtered columns (ALLOW FILTERING, no index), as a Cassandra 5.0.9 node takes them (checked against
 * one): a non-frozen collection is restricted only through its elements, and the relations on one column merge as
 * Cassandra merges them, in the order written.
 */
class FilteringRelationsTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int, c int, s int static, v int, l list<int>, st set<text>, m map<text, int>, fl frozen<list<int>>, "
                    + "PRIMARY KEY (k, c))",
            "CREATE TABLE ks.t2 (k1 int, k2 text, v int, PRIMARY KEY ((k1, k2)))");

    {
        fixture.execute("BEGIN BATCH INSERT INTO ks.t (k, c, v, l, fl) VALUES (0, 1, 1, [1, 1], [1, 1]); "
                + "INSERT INTO ks.t (k, c, v, l, fl) VALUES (0, 2, 2, [2], [2]); APPLY BATCH");
    }

    private List<Object> cs(String where) {
        return CasFixture.rows(fixture.execute("SELECT c FROM ks.t WHERE k = 0 AND " + where + " ALLOW FILTERING")).stream()
                .map(r -> r.get("c")).toList();
    }

    @Test
    void aNonFrozenCollectionIsRestrictedOnlyThroughItsElements() {
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND l = [1, 1] ALLOW FILTERING",
                "Collection column 'l' (list<int>) cannot be restricted by a '=' relation");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND l = [1, 1]",
                "Collection column 'l' (list<int>) cannot be restricted by a '=' relation");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE l IN ([1], [2]) ALLOW FILTERING",
                "Collection column 'l' (list<int>) cannot be restricted by a 'IN' relation");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE st = {} ALLOW FILTERING",
                "Collection column 'st' (set<text>) cannot be restricted by a '=' relation");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE m = {'a': 1} ALLOW FILTERING",
                "Collection column 'm' (map<text, int>) cannot be restricted by a '=' relation");
        assertThat(cs("l CONTAINS 1")).containsExactly(1);
        assertThat(cs("fl = [2]")).containsExactly(2);
        assertThat(cs("fl IN ([1, 1], [2])")).containsExactly(1, 2);
    }

    @Test
    void relationsOnOneColumnMergeAsCassandrasDo() {
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v > 2 AND v >= 3 ALLOW FILTERING",
                "More than one restriction was found for the start bound on v");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v < 2 AND v <= 3 ALLOW FILTERING",
                "More than one restriction was found for the end bound on v");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v > 2 AND v > 3", "More than one restriction was found for the start bound on v");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v IN (1, 2) AND v > 0 ALLOW FILTERING",
                "v cannot be restricted by more than one relation if it includes a IN");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v > 0 AND v IN (1, 2) ALLOW FILTERING",
                "Column \"v\" cannot be restricted by both an equality and an inequality relation");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v > 0 AND v = 1 ALLOW FILTERING",
                "Column \"v\" cannot be restricted by both an equality and an inequality relation");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE v = 1 AND v > 0 ALLOW FILTERING",
                "v cannot be restricted by more than one relation if it includes an Equal");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE s > 0 AND s > 1 ALLOW FILTERING",
                "More than one restriction was found for the start bound on s");
        fixture.assertInvalid("SELECT * FROM ks.t2 WHERE k2 > 'a' AND k2 > 'b' ALLOW FILTERING",
                "More than one restriction was found for the start bound on k2");
        // a partition key column's EQ and IN merge by the same rule, named by the first relation (Cassandra 5.0.9)
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k IN (1, 2) AND k = 3",
                "k cannot be restricted by more than one relation if it includes a IN");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k IN (1, 2) AND k IN (3)",
                "k cannot be restricted by more than one relation if it includes a IN");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 3 AND k IN (1, 2)",
                "k cannot be restricted by more than one relation if it includes an Equal");
        assertThat(cs("v > 0 AND v < 2")).containsExactly(1);
        assertThat(cs("l CONTAINS 1 AND l CONTAINS 1")).containsExactly(1);
    }
}

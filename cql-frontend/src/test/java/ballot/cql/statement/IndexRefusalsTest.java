package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ballot.cql.error.SyntaxException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What SELECT refuses on tables with storage-attached indexes, as a Cassandra 5.0.9 node answers (checked against one):
 * an operator no index supports is the plain filtering error, ORDER BY is refused when an index serves the query, a null
 * value of a served relation is unsupported, and a plain CREATE INDEX takes no options.
 */
class IndexRefusalsTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.p (k int, c int, v int, t text, m map<text, int>, fl frozen<list<int>>, PRIMARY KEY (k, c))",
            "CREATE TABLE ks.q (k1 int, k2 text, c1 int, c2 text, s text static, v int, t text, PRIMARY KEY ((k1, k2), c1, c2))",
            "CREATE CUSTOM INDEX ON ks.p (v) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.p (t) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.p (keys(m)) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.p (entries(m)) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.p (full(fl)) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.q (k1) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.q (c2) USING 'sai'",
            "CREATE CUSTOM INDEX ON ks.q (s) USING 'sai'");

    {
        fixture.execute("BEGIN BATCH INSERT INTO ks.p (k, c, v, t) VALUES (1, 1, 4, 'b'); INSERT INTO ks.p (k, c, v, t) VALUES (1, 2, 5, 'a'); APPLY BATCH");
        fixture.execute("UPDATE ks.q SET t = 'x' WHERE k1 = 1 AND k2 = 'x' AND c1 IN (0, 2) AND c2 = 'a'");
    }

    private List<String> cs(String cql) {
        return CasFixture.rows(fixture.execute(cql)).stream().map(r -> String.valueOf(r.get("c"))).toList();
    }

    @Test
    void anOperatorNoIndexSupportsGetsThePlainFilteringError() {
        for (String where : List.of("t > 'a'", "k = 1 AND t > 'a'", "m CONTAINS 1", "m['a'] = 1 AND t > 'a'", "fl CONTAINS 1", "v IN (1, 2)")) {
            fixture.assertInvalid("SELECT * FROM ks.p WHERE " + where, SelectStatement.REQUIRES_ALLOW_FILTERING);
        }
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k1 = 1 AND k2 = 'x' AND s > 'x1'", SelectStatement.REQUIRES_ALLOW_FILTERING);
    }

    @Test
    void aClusteringColumnPastAGapNeedsAnIndexThatServesIt() {
        fixture.assertInvalid("SELECT * FROM ks.q WHERE c2 > 'a'",
                "PRIMARY KEY column \"c2\" cannot be restricted as preceding column \"c1\" is not restricted");
        // an index serving another relation makes the query an index query, which only needs filtering
        fixture.assertInvalid("SELECT * FROM ks.q WHERE c2 > 'a' AND s = 'x1'", SelectStatement.REQUIRES_ALLOW_FILTERING);
    }

    @Test
    void anIndexQueryTakesNoInOnAnyPartitionKeyColumn() {
        String refusal = "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported";
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k1 IN (1, 2) AND s = 'x1' ALLOW FILTERING", refusal);
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k2 IN ('x', 'y') AND s = 'x1'", refusal);
        // the index on k1 serves its relation, and t is filtered
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k1 = 1 AND k2 IN ('x', 'y') AND t = 'x' ALLOW FILTERING", refusal);
        // an IN no index serves, with nothing else, is a plain filtered scan
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k1 IN (1, 2)", SelectStatement.REQUIRES_ALLOW_FILTERING);
    }

    @Test
    void orderByIsRefusedWhenAnIndexServesTheQuery() {
        String refusal = "ORDER BY with 2ndary indexes is not supported, except for ANN queries.";
        fixture.assertInvalid("SELECT * FROM ks.p WHERE v = 2 ORDER BY c DESC", refusal);
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND v > 0 ORDER BY c ASC", refusal);
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND v > 0 ORDER BY c ASC ALLOW FILTERING", refusal);
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k1 = 1 AND k2 = 'x' AND c2 = 'a' ORDER BY c1 ASC", refusal);
        // an index on a key column the key answers counts once something is filtered
        fixture.assertInvalid("SELECT * FROM ks.q WHERE k1 = 1 AND k2 = 'x' AND t = 'xa' ORDER BY c1 ASC ALLOW FILTERING", refusal);
        assertThat(CasFixture.rows(fixture.execute("SELECT c1 FROM ks.q WHERE k1 = 1 AND k2 = 'x' AND c1 > 0 ORDER BY c1 ASC"))).hasSize(1);
        // filtering a column whose index does not support the operator uses no index
        assertThat(cs("SELECT c FROM ks.p WHERE k = 1 AND t > 'a' ORDER BY c ASC ALLOW FILTERING")).containsExactly("1");
    }

    @Test
    void aNullValueOfAServedRelationIsUnsupported() {
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND v = null", "Unsupported null value for column v");
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND v > null", "Unsupported null value for column v");
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND m CONTAINS KEY null", "Unsupported null value for column m");
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND m['a'] = null", "Unsupported null map value for column m");
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND m[null] = 1", "Unsupported null map key for column m");
        fixture.assertInvalid("SELECT * FROM ks.p WHERE k = 1 AND fl = null", "Unsupported null value for column fl");
    }

    @Test
    void likeWithoutAnAnalyzedIndexNamesTheRelation() {
        fixture.assertInvalid("SELECT * FROM ks.p WHERE t LIKE 'a%' ALLOW FILTERING",
                "LIKE restriction is only supported on properly indexed columns. t LIKE 'a%' is not valid.");
    }

    @Test
    void aPlainCreateIndexTakesNoOptions() {
        fixture.assertInvalid("CREATE INDEX ON ks.p (c) WITH OPTIONS = {'case_sensitive': 'false'}", "Cannot specify options for a non-CUSTOM index");
        // an unknown property is a syntax error first
        assertThat(catchThrowable(() -> fixture.execute("CREATE INDEX ON ks.p (c) WITH foo = 1"))).isInstanceOf(SyntaxException.class)
                .hasMessage("Unknown property 'foo'");
        fixture.execute("CREATE INDEX ON ks.q (t) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false'}");
    }
}

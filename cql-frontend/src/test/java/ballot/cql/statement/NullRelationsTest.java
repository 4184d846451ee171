package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Null values in WHERE relations, as Cassandra 5.0 takes them (checked against a 5.0.9 node): a null bound of a
 * single-column clustering slice is the empty value, before all others; elsewhere a null is refused, in a condition on
 * a key or clustering column, unsupported on a filtered column.
 */
class NullRelationsTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int, c1 int, c2 int, v int, m map<int, int>, PRIMARY KEY (k, c1, c2))",
            "CREATE TABLE ks.t2 (k1 int, k2 int, v int, PRIMARY KEY ((k1, k2)))");

    {
        fixture.execute("UPDATE ks.t SET v = 0 WHERE k = 0 AND c1 IN (1, 2) AND c2 IN (1, 2)");
    }

    private List<String> rows(String where) {
        return CasFixture.rows(fixture.execute("SELECT c1, c2 FROM ks.t WHERE k = 0 AND " + where)).stream()
                .map(r -> r.get("c1") + "" + r.get("c2")).toList();
    }

    @Test
    void aNullClusteringSliceBoundIsTheEmptyValue() {
        assertThat(rows("c1 > null")).containsExactly("11", "12", "21", "22");
        assertThat(rows("c1 = 1 AND c2 >= null")).containsExactly("11", "12");
        assertThat(rows("c1 = 1 AND c2 <= null")).isEmpty();
        assertThat(rows("c1 < null AND c1 > 0")).isEmpty();
    }

    @Test
    void nullKeyAndClusteringValuesAreRefusedInACondition() {
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = null", "Invalid null value in condition for column k");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k IN (0, null)", "Invalid null value in condition for column k");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND c1 IN (null)", "Invalid null value in condition for column c1");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND (c1, c2) > (1, null)", "Invalid null value in condition for column c2");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND (c1, c2) = (1, null)", "Invalid null value for column c2");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND (c1, c2) IN ((1, null))", "Invalid null value for column c2");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE token(k) > null", "Invalid null token value");
    }

    @Test
    void nullValuesOfFilteredColumnsAreUnsupported() {
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND v = null ALLOW FILTERING", "Unsupported null value for column v");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND v > null ALLOW FILTERING", "Unsupported null value for column v");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND v IN (null) ALLOW FILTERING", "Unsupported null value for column v");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND v != null ALLOW FILTERING", "Unsupported \"!=\" relation: v != NULL");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND m CONTAINS KEY null ALLOW FILTERING", "Unsupported null value for column m");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND m[null] = 1 ALLOW FILTERING", "Unsupported null map key for column m");
        fixture.assertInvalid("SELECT * FROM ks.t WHERE k = 0 AND m[1] = null ALLOW FILTERING", "Unsupported null map value for column m");
        fixture.assertInvalid("SELECT * FROM ks.t2 WHERE k1 = null ALLOW FILTERING", "Unsupported null value for column k1");
    }
}

package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Token restrictions beside partition key ones, as Cassandra 5.0 answers them (checked against a 5.0.9 node): with the
 * whole key given, the token bounds keep the keys whose token is within them; two bounds on one side are refused.
 */
class TokenRestrictionsTest {
    /** token(1) of an int key. */
    private static final long TOKEN_OF_1 = -4069959284402364209L;

    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))",
            "CREATE TABLE ks.t2 (k1 int, k2 int, v int, PRIMARY KEY ((k1, k2)))");

    {
        fixture.execute("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)");
    }

    private List<Object> keys(String where) {
        return CasFixture.rows(fixture.execute("SELECT k FROM ks.t WHERE " + where)).stream().map(r -> r.get("k")).toList();
    }

    @Test
    void tokenBoundsBesideTheWholeKeyKeepTheKeysWithin() {
        assertThat(keys("k = 1 AND token(k) > 0")).isEmpty();
        assertThat(keys("token(k) < 0 AND k = 1")).containsExactly(1);
        assertThat(keys("k = 1 AND token(k) = " + TOKEN_OF_1)).containsExactly(1);
        assertThat(keys("k = 1 AND token(k) > " + TOKEN_OF_1)).isEmpty();
        assertThat(keys("k = 1 AND c = 1 AND token(k) >= " + TOKEN_OF_1 + " AND token(k) <= " + TOKEN_OF_1)).containsExactly(1);
    }

    @Test
    void aSecondBoundOnOneSideIsRefused() {
        refused("SELECT k FROM ks.t WHERE token(k) > 0 AND token(k) >= 1", "More than one restriction was found for the start bound on k");
        refused("SELECT k FROM ks.t WHERE token(k) < 0 AND token(k) <= 1", "More than one restriction was found for the end bound on k");
        refused("SELECT k FROM ks.t WHERE token(k) = 0 AND token(k) > 1", "k cannot be restricted by more than one relation if it includes an Equal");
        refused("SELECT k1 FROM ks.t2 WHERE token(k1, k2) > 0 AND token(k1, k2) = 1",
                "Columns \"k1, k2\" cannot be restricted by both an equality and an inequality relation");
        refused("SELECT k1 FROM ks.t2 WHERE token(k2, k1) > 0", "The token function arguments must be in the partition key order: k1, k2");
    }

    private void refused(String cql, String message) {
        assertThatThrownBy(() -> fixture.execute(cql)).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }
}

package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values sent with a statement that Cassandra refuses, refused with Cassandra 5.0.9's messages. */
class BoundValuesTest {
    private static final ByteBuffer ONE = CqlTypes.INT.decompose(1);
    private static final ByteBuffer UNSET = QueryOptions.UNSET;

    private final CasFixture f = new CasFixture(
            "CREATE TABLE t (k int, c int, d int, v int, m map<int, text>, PRIMARY KEY (k, c, d))",
            "CREATE TABLE i (k int PRIMARY KEY, w int)", "CREATE CUSTOM INDEX ON i (w) USING 'sai'");

    private void assertRefused(String cql, List<String> names, String message, ByteBuffer... values) {
        QueryOptions options = new QueryOptions(ConsistencyLevel.ONE, Arrays.asList(values), names, false, -1, null, null, null, null, null);
        f.assertRefused(cql, options, ErrorCode.INVALID, message);
    }

    private void assertRefused(String cql, String message, ByteBuffer... values) {
        assertRefused(cql, null, message, values);
    }

    @Test
    void tooManyOrTooFewValuesAreAnInvalidAmount() {
        assertRefused("SELECT * FROM t WHERE k = ?", "Invalid amount of bind variables", ONE, ONE);
        assertRefused("SELECT * FROM t WHERE k = ? AND c = ?", "Invalid amount of bind variables", ONE);
        assertRefused("SELECT * FROM t WHERE k = 1", "Invalid amount of bind variables", ONE);
        assertRefused("SELECT * FROM t WHERE k = :kk", List.of("zz"), "Invalid amount of bind variables", ONE);
        assertRefused("SELECT * FROM t WHERE k = :kk AND c = :cc", List.of("kk"), "Invalid amount of bind variables", ONE);
    }

    @Test
    void unsetAndNullValuesWhereARestrictionNeedsOne() {
        assertRefused("SELECT * FROM t WHERE k = 1 AND c > ?", "Invalid unset value for column c", UNSET);
        assertRefused("DELETE FROM t WHERE k = 1 AND c < ?", "Invalid unset value for column c", UNSET);
        assertRefused("SELECT * FROM t WHERE k IN ?", "Invalid unset value for column k", UNSET);
        assertRefused("SELECT * FROM t WHERE k IN ?", "Invalid null value for column k", (ByteBuffer) null);
        assertRefused("SELECT * FROM t WHERE k = 1 AND c IN ?", "Invalid null value for column c", (ByteBuffer) null);
        assertRefused("SELECT * FROM t WHERE k = 1 AND v = ? ALLOW FILTERING", "Unsupported unset value for column v", UNSET);
        assertRefused("SELECT * FROM t WHERE k = 1 AND d = ? ALLOW FILTERING", "Unsupported unset value for column d", UNSET);
        assertRefused("SELECT * FROM t WHERE k = 1 AND m CONTAINS ? ALLOW FILTERING", "Unsupported unset value for column m", UNSET);
        // a relation an index serves words it as a filter does (it said 'Invalid unset value')
        assertRefused("SELECT * FROM i WHERE w = ?", "Unsupported unset value for column w", UNSET);
        assertRefused("SELECT * FROM i WHERE w > ?", "Unsupported unset value for column w", UNSET);
        assertRefused("SELECT * FROM t WHERE k = 1 LIMIT ?", "Invalid null value of limit", (ByteBuffer) null);
        assertRefused("SELECT * FROM t WHERE k = 1 PER PARTITION LIMIT ?", "Invalid null value of limit", (ByteBuffer) null);
    }

    @Test
    void aLimitBelowOneIsRefusedInLimitsWordsForBothLimits() {
        assertRefused("SELECT * FROM t WHERE k = 1 LIMIT ?", "LIMIT must be strictly positive", CqlTypes.INT.decompose(0));
        // Cassandra 5.0.9 words PER PARTITION LIMIT's refusal as LIMIT's
        assertRefused("SELECT * FROM t WHERE k = 1 PER PARTITION LIMIT ?", "LIMIT must be strictly positive", CqlTypes.INT.decompose(-1));
        assertRefused("SELECT * FROM t PER PARTITION LIMIT 0", "LIMIT must be strictly positive");
    }
}

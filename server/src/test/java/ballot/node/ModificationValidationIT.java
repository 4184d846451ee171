package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** INSERT, UPDATE and DELETE that Cassandra 5.0 refuses, refused with its error class and message. */
class ModificationValidationIT {
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        node = TestNode.start("modval");
        session = node.session();
        session.execute("CREATE KEYSPACE mv WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static void assertInvalid(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).isInstanceOf(InvalidQueryException.class).hasMessage(message);
    }

    @Test
    void conditionalDeleteWithoutFullPrimaryKeyDeletesOnlyStaticColumns() {
        session.execute("CREATE TABLE mv.r29 (k int, c int, s int static, v int, PRIMARY KEY (k, c))");
        session.execute("INSERT INTO mv.r29 (k, c, s, v) VALUES (1, 1, 8, 1)");
        String rows = "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns";
        assertInvalid("DELETE FROM mv.r29 WHERE k = 1 IF s = 8", rows);
        assertInvalid("DELETE FROM mv.r29 WHERE k = 1 IF EXISTS", rows);
        assertInvalid("DELETE FROM mv.r29 WHERE k = 1 AND c > 0 IF EXISTS", rows);
        assertInvalid("DELETE s FROM mv.r29 WHERE k = 1 IF v = 1",
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF condition on non static columns");
        assertThat(session.execute("SELECT c, s FROM mv.r29 WHERE k = 1").all()).hasSize(1);

        assertThat(session.execute("DELETE s FROM mv.r29 WHERE k = 1 IF s = 8").one().getBoolean("[applied]")).isTrue();
        var row = session.execute("SELECT c, s, v FROM mv.r29 WHERE k = 1").one();
        assertThat(row.getInt("c")).isEqualTo(1);
        assertThat(row.isNull("s")).isTrue();
        assertThat(row.getInt("v")).isEqualTo(1);
        session.execute("UPDATE mv.r29 SET s = 9 WHERE k = 1");
        assertThat(session.execute("DELETE s FROM mv.r29 WHERE k = 1 IF EXISTS").one().getBoolean("[applied]")).isTrue();
        assertThat(session.execute("DELETE FROM mv.r29 WHERE k = 1 AND c = 1 IF s = null").one().getBoolean("[applied]")).isTrue();
        assertThat(session.execute("SELECT * FROM mv.r29 WHERE k = 1").all()).isEmpty();
    }

    @Test
    void emptyPartitionKeyIsRefusedUnlessComposite() {
        session.execute("CREATE TABLE mv.e (k text PRIMARY KEY, v int)");
        String empty = "Key may not be empty";
        assertInvalid("INSERT INTO mv.e (k, v) VALUES ('', 1)", empty);
        assertInvalid("UPDATE mv.e SET v = 1 WHERE k = ''", empty);
        assertInvalid("DELETE FROM mv.e WHERE k IN ('a', '')", empty);
        assertInvalid("BEGIN BATCH INSERT INTO mv.e (k, v) VALUES ('a', 1); INSERT INTO mv.e (k, v) VALUES ('', 1); APPLY BATCH", empty);
        assertThatThrownBy(() -> session.execute(session.prepare("INSERT INTO mv.e (k, v) VALUES (?, 1)").bind("")))
                .isInstanceOf(InvalidQueryException.class).hasMessage(empty);
        assertThat(session.execute("SELECT * FROM mv.e").all()).isEmpty();

        session.execute("CREATE TABLE mv.e2 (a text, b text, v int, PRIMARY KEY ((a, b)))");
        session.execute("INSERT INTO mv.e2 (a, b, v) VALUES ('', '', 1)");
        assertThat(session.execute("SELECT v FROM mv.e2 WHERE a = '' AND b = ''").one().getInt("v")).isEqualTo(1);
    }

    @Test
    void insertOfStaticColumnsNeedsAllOrNoClusteringColumns() {
        session.execute("CREATE TABLE mv.r15 (k int, c1 int, c2 int, s int static, v int, PRIMARY KEY (k, c1, c2))");
        assertInvalid("INSERT INTO mv.r15 (k, c1, s) VALUES (1, 1, 5)", "Some clustering keys are missing: c2");
        session.execute("INSERT INTO mv.r15 (k, s) VALUES (1, 5)");
        assertThat(session.execute("SELECT s FROM mv.r15 WHERE k = 1").one().getInt("s")).isEqualTo(5);
    }

    @Test
    void counterUpdatesTakeNoCustomTimestamp() {
        session.execute("CREATE TABLE mv.cnt (k int PRIMARY KEY, n counter)");
        String message = "Cannot provide custom timestamp for counter updates";
        assertInvalid("UPDATE mv.cnt USING TIMESTAMP 5 SET n = n + 1 WHERE k = 1", message);
        assertInvalid("DELETE FROM mv.cnt USING TIMESTAMP 5 WHERE k = 1", message);
        session.execute("UPDATE mv.cnt SET n = n + 1 WHERE k = 1");
        assertThat(session.execute("SELECT n FROM mv.cnt WHERE k = 1").one().getLong("n")).isEqualTo(1);
    }

    private static String expirationOverflow(String table, String ttl) {
        return "Request on table mv." + table + " with " + ttl + " seconds exceeds maximum supported expiration date of "
                + "2038-01-19T03:14:06+00:00. In order to avoid this use a lower TTL, change the expiration date overflow policy "
                + "or upgrade to a version where this limitation is fixed. See CASSANDRA-14092 and CASSANDRA-14227 for more details.";
    }

    @Test
    void ttlExpiringAfter2038IsRefused() {
        session.execute("CREATE TABLE mv.ttl (k int PRIMARY KEY, v int)");
        assertInvalid("INSERT INTO mv.ttl (k, v) VALUES (1, 1) USING TTL 630720000", expirationOverflow("ttl", "ttl of 630720000"));
        assertInvalid("UPDATE mv.ttl USING TTL 630720000 SET v = 1 WHERE k = 1", expirationOverflow("ttl", "ttl of 630720000"));
        assertInvalid("INSERT INTO mv.ttl (k, v) VALUES (1, 1) USING TTL 630720001",
                "ttl is too large. requested (630720001) maximum (630720000)");
        int latest = (int) (2147483646L - System.currentTimeMillis() / 1000 - 3600);
        session.execute("INSERT INTO mv.ttl (k, v) VALUES (1, 1) USING TTL " + latest);
        assertThat(session.execute("SELECT ttl(v) FROM mv.ttl WHERE k = 1").one().getInt(0)).isPositive();

        session.execute("CREATE TABLE mv.ttl2 (k int PRIMARY KEY, v int) WITH default_time_to_live = 630720000");
        assertInvalid("INSERT INTO mv.ttl2 (k, v) VALUES (1, 1)", expirationOverflow("ttl2", "default ttl of 630720000"));
        session.execute("INSERT INTO mv.ttl2 (k, v) VALUES (1, 1) USING TTL 60");
    }

    @Test
    void floatLiteralOverflowingDoubleIsASyntaxError() {
        session.execute("CREATE TABLE mv.d (k int PRIMARY KEY, v double, w decimal)");
        for (String literal : List.of("1e309", "-1e309")) {
            String cql = "INSERT INTO mv.d (k, v) VALUES (1, " + literal + ")";
            assertThatThrownBy(() -> session.execute(cql)).isInstanceOf(SyntaxError.class)
                    .hasMessage("Failed parsing statement: [" + cql + "] reason: NumberFormatException Character I is neither "
                            + "a decimal digit number, decimal point, nor \"e\" notation exponential mark.");
        }
        session.execute("INSERT INTO mv.d (k, v, w) VALUES (1, 1.7976931348623157e308, 1e-400)");
        assertThat(session.execute("SELECT v FROM mv.d WHERE k = 1").one().getDouble("v")).isEqualTo(Double.MAX_VALUE);
    }
}

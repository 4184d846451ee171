package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ScyllaDB's SCYLLA_LWT_ADD_METADATA_MARK on a real node over a real socket, in hand-written v4 frames: SUPPORTED
 * advertises it with bit 31 as the mask, and PREPARED sets that bit in the prepared metadata flags of conditional
 * statements (a BATCH with conditions included) for connections that named the key in STARTUP, and for no other
 * connection.
 */
class LwtMetadataMarkIT {
    private static final String KEY = "SCYLLA_LWT_ADD_METADATA_MARK";
    private static final List<String> CONDITIONAL = List.of(
            "INSERT INTO lwt.kv (k, v) VALUES (?, ?) IF NOT EXISTS",
            "UPDATE lwt.kv SET v = ? WHERE k = ? IF v = ?",
            "UPDATE lwt.kv SET v = ? WHERE k = ? IF EXISTS",
            "DELETE FROM lwt.kv WHERE k = ? IF EXISTS",
            "DELETE v FROM lwt.kv WHERE k = ? IF v = ?",
            "BEGIN BATCH INSERT INTO lwt.kv (k, v) VALUES (?, ?) IF NOT EXISTS; UPDATE lwt.kv SET v = ? WHERE k = ? APPLY BATCH");
    private static final List<String> PLAIN = List.of(
            "INSERT INTO lwt.kv (k, v) VALUES (?, ?)",
            "UPDATE lwt.kv SET v = ? WHERE k = ?",
            "DELETE FROM lwt.kv WHERE k = ?",
            "SELECT v FROM lwt.kv WHERE k = ?",
            "BEGIN BATCH INSERT INTO lwt.kv (k, v) VALUES (?, ?) APPLY BATCH");

    private static TestNode node;

    @BeforeAll
    static void start() {
        node = TestNode.start("lwtmark");
        try (CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE lwt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE lwt.kv (k int PRIMARY KEY, v int)");
        }
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    /** STARTUP as the Scylla drivers send it: the key, with the mask as its value (the Java driver's is signed). */
    private static RawCqlConnection marked() throws IOException {
        return RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0", KEY, "-2147483648"));
    }

    private static RawCqlConnection unmarked() throws IOException {
        return RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0"));
    }

    @Test
    void advertisesTheExtensionWithBit31AsItsMask() throws IOException {
        try (RawCqlConnection connection = RawCqlConnection.open(node.address())) {
            assertThat(connection.options()).containsEntry(KEY, List.of("LWT_OPTIMIZATION_META_BIT_MASK=2147483648"));
        }
    }

    @Test
    void marksConditionalStatementsAndOnlyThemForAConnectionThatAskedForTheMark() throws IOException {
        try (RawCqlConnection connection = marked()) {
            for (String cql : CONDITIONAL) assertThat(connection.prepare(cql).lwt()).as(cql).isTrue();
            for (String cql : PLAIN) assertThat(connection.prepare(cql).lwt()).as(cql).isFalse();
        }
    }

    @Test
    void sendsEveryOtherConnectionTheBytesItWouldGetWithoutTheExtension() throws IOException {
        try (RawCqlConnection withMark = marked(); RawCqlConnection without = unmarked()) {
            for (String cql : concat(CONDITIONAL, PLAIN)) {
                // The prepared statement is cached by the first connection; the second must still get its own form.
                byte[] markedBody = withMark.prepareBody(cql);
                byte[] plainBody = without.prepareBody(cql);
                assertThat(without.prepare(cql).lwt()).as(cql).isFalse();
                assertThat(plainBody).as(cql).isEqualTo(clearLwtBit(markedBody));
            }
        }
    }

    @Test
    void runsAMarkedStatementLikeAnyOther() throws IOException {
        try (RawCqlConnection connection = marked()) {
            RawCqlConnection.Prepared insert = connection.prepare("INSERT INTO lwt.kv (k, v) VALUES (?, ?) IF NOT EXISTS");

            assertThat(RawCqlConnection.applied(connection.execute(insert.id(), 7, 70))).isTrue();
            assertThat(RawCqlConnection.applied(connection.execute(insert.id(), 7, 71))).isFalse();
        }
    }

    /** A PREPARED body with bit 31 of its prepared metadata flags cleared: [int] kind, [short bytes] id, [int] flags. */
    private static byte[] clearLwtBit(byte[] body) {
        byte[] cleared = body.clone();
        int idLength = ((body[4] & 0xFF) << 8) | (body[5] & 0xFF);
        cleared[6 + idLength] &= 0x7F;
        return cleared;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}

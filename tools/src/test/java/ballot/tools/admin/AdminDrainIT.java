package ballot.tools.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tools.TestNode;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** drain against a real node in this JVM: a node of its own, since a drained node serves no more clients. */
class AdminDrainIT {
    private static TestNode node;

    @BeforeAll
    static void startNode() {
        node = TestNode.start("drain", true);
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) node.close();
    }

    private static AdminCliIT.Run admin(String... args) {
        return AdminCliIT.admin(node, node.metricsPort(), args);
    }

    @Test
    void drainFlushesThenRefusesNewClientsWhileTheAdminCallsStillAnswer() {
        try (CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE drain_it WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE drain_it.kv (k int PRIMARY KEY, v int)");
            for (int i = 0; i < 10; i++) session.execute("INSERT INTO drain_it.kv (k, v) VALUES (?, ?)", i, i);
        }
        JsonNode before = admin("--json", "tablestats", "drain_it.kv").json().get(0);
        assertThat(before.get("sstable_count").asInt()).as("in the memtable only").isZero();
        AdminCliIT.Run drain = admin("drain");
        assertThat(drain.exitCode()).as(drain.out() + drain.err()).isZero();
        assertThat(drain.out()).startsWith("Drained ");

        assertThatThrownBy(() -> node.session().close()).isInstanceOf(AllNodesFailedException.class);
        AdminCliIT.Run status = admin("status");
        assertThat(status.exitCode()).isEqualTo(1);
        assertThat(status.err().strip()).isEqualTo("ballot-admin status: cannot reach the node over CQL at "
                + node.address().getAddress().getHostAddress() + ":" + node.address().getPort() + " (is it up, and is --host/--port right?)");

        JsonNode info = admin("--json", "info").json();
        assertThat(info.get("native_transport_active").asBoolean()).isFalse();
        assertThat(info.get("gossip_active").asBoolean()).isFalse();
        JsonNode table = admin("--json", "tablestats", "drain_it.kv").json().get(0);
        assertThat(table.get("sstable_count").asInt()).as("drain flushed the memtable").isPositive();
        assertThat(table.get("memtable_bytes").asLong()).isLessThan(before.get("memtable_bytes").asLong());
        assertThat(admin("drain").exitCode()).as("a second drain is harmless").isZero();
    }
}

package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Client connections are limited (issue 11): past native_transport_max_concurrent_connections a new connection is
 * closed at once, and one closing makes room again. Nothing limited them, and about 20,000 idle connections took the
 * file descriptors RocksDB needed.
 */
class ConnectionLimitIT {
    @Test
    void connectionsPastTheLimitAreClosedAtOnceAndClosingOneMakesRoom() throws IOException {
        try (TestNode node = TestNode.start("connection-limit", config -> config.maxConnections = 3)) {
            List<RawCqlConnection> admitted = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    RawCqlConnection c = RawCqlConnection.open(node.address());
                    admitted.add(c);
                    assertThat(c.options()).as("connection %d answers OPTIONS", i + 1).containsKey("CQL_VERSION");
                }
                try (RawCqlConnection refused = RawCqlConnection.open(node.address())) {
                    assertThatThrownBy(refused::options).as("the fourth connection is closed").isInstanceOf(IOException.class);
                }
                admitted.remove(0).close();
                RawCqlConnection again = null;
                for (int attempt = 0; attempt < 50 && again == null; attempt++) { // the server sees the close a moment later
                    RawCqlConnection c = RawCqlConnection.open(node.address());
                    try {
                        c.options();
                        again = c;
                    } catch (IOException closed) {
                        c.close();
                        sleep(100);
                    }
                }
                assertThat(again).as("a connection once one of the three closed").isNotNull();
                admitted.add(again);
            } finally {
                for (RawCqlConnection c : admitted) c.close();
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

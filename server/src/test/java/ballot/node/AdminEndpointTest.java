package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.metrics.AdminChanges;
import ballot.metrics.TestExchange;
import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The admin calls that change the node take the same rule as the trace probability (AdminChanges). Storage and schema
 * are absent: a refused change must not reach them. AdminCliIT covers the calls over a real socket.
 */
class AdminEndpointTest {
    private static final InetAddress ELSEWHERE = address("192.0.2.7"); // TEST-NET-1: never a loopback address
    private final AtomicInteger drains = new AtomicInteger();
    private final AdminEndpoint.NodeState node = new AdminEndpoint.NodeState() {
        public boolean nativeTransportActive() {
            return true;
        }

        public boolean gossipActive() {
            return true;
        }

        public void drain() {
            drains.incrementAndGet();
        }
    };

    private TestExchange call(boolean changesFromAnyAddress, String method, String call, InetAddress client) throws IOException {
        TestExchange exchange = new TestExchange(method, AdminEndpoint.PATH + call, client);
        new AdminEndpoint(null, null, null, null, null, node, new AdminChanges(changesFromAnyAddress)).handle(exchange);
        return exchange;
    }

    @Test
    void refusesChangesFromAnotherHostByDefault() throws IOException {
        for (String change : new String[] {"flush", "compact", "drain"}) {
            TestExchange refused = call(false, "POST", change, ELSEWHERE);
            assertThat(refused.status()).as(change).isEqualTo(403);
            assertThat(refused.body()).contains(change + " can be asked only from this host", "not from 192.0.2.7", "admin_changes_from_any_address");
        }
        assertThat(drains).hasValue(0);
    }

    @Test
    void drainsWhenAskedFromLoopbackOrFromAnywhereWhenAllowed() throws IOException {
        assertThat(call(false, "POST", "drain", InetAddress.getLoopbackAddress()).status()).isEqualTo(200);
        assertThat(call(true, "POST", "drain", ELSEWHERE).status()).isEqualTo(200);
        assertThat(drains).hasValue(2);
    }

    @Test
    void changesNeedPostAndUnknownCallsAreNotFound() throws IOException {
        assertThat(call(false, "GET", "drain", InetAddress.getLoopbackAddress()).status()).isEqualTo(405);
        assertThat(call(false, "GET", "nosuchcall", InetAddress.getLoopbackAddress()).status()).isEqualTo(404);
        assertThat(drains).hasValue(0);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}

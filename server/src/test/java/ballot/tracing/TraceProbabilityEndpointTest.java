package ballot.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.trace.Tracer;
import ballot.metrics.AdminChanges;
import ballot.metrics.TestExchange;
import java.io.IOException;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/**
 * Who may change the trace probability. Test nodes listen on loopback only, so a client from another address is an
 * exchange made here; TracingIT covers the loopback calls over a real socket.
 */
class TraceProbabilityEndpointTest {
    private static final InetAddress ELSEWHERE = address("192.0.2.7"); // TEST-NET-1: never a loopback address
    private final Tracer tracer = new Tracer(InetAddress.getLoopbackAddress(), 7000, null, 0);

    @Test
    void refusesAChangeFromAnotherHostByDefault() throws IOException {
        TestExchange post = new TestExchange("POST", TraceProbabilityEndpoint.PATH + "?probability=1", ELSEWHERE);
        new TraceProbabilityEndpoint(tracer, new AdminChanges(false)).handle(post);
        assertThat(post.status()).isEqualTo(403);
        assertThat(post.body()).contains("only from this host", "not from 192.0.2.7", "admin_changes_from_any_address");
        assertThat(tracer.probability()).isZero();

        TestExchange get = new TestExchange("GET", TraceProbabilityEndpoint.PATH, ELSEWHERE);
        new TraceProbabilityEndpoint(tracer, new AdminChanges(false)).handle(get);
        assertThat(get.status()).as("reading is allowed").isEqualTo(200);
    }

    @Test
    void takesAChangeFromLoopbackOrFromAnywhereWhenAllowed() throws IOException {
        TestExchange local = new TestExchange("POST", TraceProbabilityEndpoint.PATH + "?probability=0.5", address("127.0.0.1"));
        new TraceProbabilityEndpoint(tracer, new AdminChanges(false)).handle(local);
        assertThat(local.status()).isEqualTo(200);
        assertThat(tracer.probability()).isEqualTo(0.5);

        TestExchange remote = new TestExchange("POST", TraceProbabilityEndpoint.PATH + "?probability=1", ELSEWHERE);
        new TraceProbabilityEndpoint(tracer, new AdminChanges(true)).handle(remote);
        assertThat(remote.status()).isEqualTo(200);
        assertThat(tracer.probability()).isEqualTo(1);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}

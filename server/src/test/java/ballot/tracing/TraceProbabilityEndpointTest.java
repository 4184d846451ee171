package ballot.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.trace.Tracer;
import ballot.metrics.AdminChanges;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
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
        Exchange post = new Exchange("POST", "?probability=1", ELSEWHERE);
        new TraceProbabilityEndpoint(tracer, new AdminChanges(false)).handle(post);
        assertThat(post.status).isEqualTo(403);
        assertThat(post.body()).contains("only from this host", "not from 192.0.2.7", "admin_changes_from_any_address");
        assertThat(tracer.probability()).isZero();

        Exchange get = new Exchange("GET", "", ELSEWHERE);
        new TraceProbabilityEndpoint(tracer, new AdminChanges(false)).handle(get);
        assertThat(get.status).as("reading is allowed").isEqualTo(200);
    }

    @Test
    void takesAChangeFromLoopbackOrFromAnywhereWhenAllowed() throws IOException {
        Exchange local = new Exchange("POST", "?probability=0.5", address("127.0.0.1"));
        new TraceProbabilityEndpoint(tracer, new AdminChanges(false)).handle(local);
        assertThat(local.status).isEqualTo(200);
        assertThat(tracer.probability()).isEqualTo(0.5);

        Exchange remote = new Exchange("POST", "?probability=1", ELSEWHERE);
        new TraceProbabilityEndpoint(tracer, new AdminChanges(true)).handle(remote);
        assertThat(remote.status).isEqualTo(200);
        assertThat(tracer.probability()).isEqualTo(1);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** One request to the endpoint's path, from {@code client}; keeps the status and body answered. */
    private static final class Exchange extends HttpExchange {
        private final String method;
        private final URI uri;
        private final InetSocketAddress client;
        private final Headers responseHeaders = new Headers();
        private final ByteArrayOutputStream response = new ByteArrayOutputStream();
        int status;

        Exchange(String method, String query, InetAddress client) {
            this.method = method;
            this.uri = URI.create(TraceProbabilityEndpoint.PATH + query);
            this.client = new InetSocketAddress(client, 40000);
        }

        String body() {
            return response.toString(StandardCharsets.UTF_8);
        }

        @Override public Headers getRequestHeaders() { return new Headers(); }
        @Override public Headers getResponseHeaders() { return responseHeaders; }
        @Override public URI getRequestURI() { return uri; }
        @Override public String getRequestMethod() { return method; }
        @Override public HttpContext getHttpContext() { throw new UnsupportedOperationException(); }
        @Override public void close() { }
        @Override public InputStream getRequestBody() { return new ByteArrayInputStream(new byte[0]); }
        @Override public OutputStream getResponseBody() { return response; }
        @Override public void sendResponseHeaders(int code, long length) { status = code; }
        @Override public InetSocketAddress getRemoteAddress() { return client; }
        @Override public int getResponseCode() { return status; }
        @Override public InetSocketAddress getLocalAddress() { return new InetSocketAddress(InetAddress.getLoopbackAddress(), 9180); }
        @Override public String getProtocol() { return "HTTP/1.1"; }
        @Override public Object getAttribute(String name) { return null; }
        @Override public void setAttribute(String name, Object value) { }
        @Override public void setStreams(InputStream in, OutputStream out) { throw new UnsupportedOperationException(); }
        @Override public HttpPrincipal getPrincipal() { return null; }
    }
}

package ballot.metrics;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One request to an admin call, from {@code client}; keeps the status and body answered. Test nodes listen on loopback
 * only, so a client from another address is an exchange made here.
 */
public final class TestExchange extends HttpExchange {
    private final String method;
    private final URI uri;
    private final InetSocketAddress client;
    private final Headers responseHeaders = new Headers();
    private final ByteArrayOutputStream response = new ByteArrayOutputStream();
    private int status;

    /** @param pathAndQuery the request's path, and its query after a '?' */
    public TestExchange(String method, String pathAndQuery, InetAddress client) {
        this.method = method;
        this.uri = URI.create(pathAndQuery);
        this.client = new InetSocketAddress(client, 40000);
    }

    public int status() {
        return status;
    }

    public String body() {
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

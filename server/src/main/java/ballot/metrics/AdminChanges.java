package ballot.metrics;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may change the node through the admin calls served on {@code metrics_port}. The port may have no authentication
 * (metrics_authentication: none, the default), so a change is taken only from a loopback address (as Cassandra's JMX is
 * local by default), unless {@code admin_changes_from_any_address} allows any; with authentication this rule still
 * holds, on top of it. Every admin call that changes the node asks this one rule.
 */
public final class AdminChanges {
    private static final Logger log = LoggerFactory.getLogger(AdminChanges.class);

    private final boolean fromAnyAddress;

    /** @param fromAnyAddress take changes from any client address, not only from a loopback one */
    public AdminChanges(boolean fromAnyAddress) {
        this.fromAnyAddress = fromAnyAddress;
    }

    public boolean permits(InetAddress client) {
        return fromAnyAddress || client.isLoopbackAddress();
    }

    /**
     * Answers 403 (naming {@code change}, the client and the setting) when the exchange's client may not make the
     * change; the caller then stops.
     *
     * @return whether the change was refused
     */
    public boolean refused(HttpExchange exchange, String change) throws IOException {
        InetAddress client = exchange.getRemoteAddress().getAddress();
        if (permits(client)) return false;
        log.warn("admin change refused change={} client={}", change, client.getHostAddress());
        answer(exchange, 403, change + " can be asked only from this host (a loopback address), not from " + client.getHostAddress()
                + "; set admin_changes_from_any_address: true to allow any address");
        return true;
    }

    /** Answers {@code text} as plain text: an admin call's value, or why it was not done. */
    public static void answer(HttpExchange exchange, int status, String text) throws IOException {
        send(exchange, status, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Answers a JSON document. */
    public static void answerJson(HttpExchange exchange, byte[] json) throws IOException {
        send(exchange, 200, "application/json", json);
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}

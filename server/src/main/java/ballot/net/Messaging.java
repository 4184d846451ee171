package ballot.net;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Request/response messaging between nodes. A request completes with the peer's reply, or exceptionally with
 * {@link MessagingException} when the peer cannot be reached, refuses the request, or does not answer within the
 * timeout. Handlers run off the network threads and may complete their future later.
 */
public interface Messaging extends AutoCloseable {
    <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout);

    /** Installs the handler of {@code verb}; {@code from} is the requesting node's internode address. */
    <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler);

    InetSocketAddress localAddress();

    @Override
    void close();

    @FunctionalInterface
    interface Handler<Q, R> {
        CompletableFuture<R> handle(Q request, InetSocketAddress from);
    }
}

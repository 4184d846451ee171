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
    /** Where a handler, or the callbacks of a request's reply, run. */
    enum Dispatch {
        /** On the messaging's own threads: the work may take a while. */
        POOLED,
        /**
         * On the network thread that read the message, saving a thread hand-off on each side of a round trip. Only for
         * work that hands over to an executor of its own at once (never blocks, takes microseconds); the message is
         * decoded on that thread too, so it is for small messages.
         */
        HAND_OVER
    }

    default <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout) {
        return request(peer, verb, payload, timeout, Dispatch.POOLED);
    }

    /** Sends a request; {@code completion} says where the returned future completes with the reply. */
    <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout, Dispatch completion);

    /** Installs the handler of {@code verb}; {@code from} is the requesting node's internode address. */
    default <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler) {
        handle(verb, handler, Dispatch.POOLED);
    }

    /** Installs the handler of {@code verb}, run where {@code dispatch} says. */
    <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler, Dispatch dispatch);

    InetSocketAddress localAddress();

    @Override
    void close();

    @FunctionalInterface
    interface Handler<Q, R> {
        CompletableFuture<R> handle(Q request, InetSocketAddress from);
    }
}

package ballot.net;

import io.netty.channel.Channel;
import io.netty.util.Timeout;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** A request waiting for its reply. Whoever removes it from {@link NettyMessaging}'s table completes it: reply, failure or timeout, exactly once. */
final class PendingRequest<R> {
    final long id;
    final Verb<?, R> verb;
    final InetSocketAddress peer;
    final CompletableFuture<R> future;
    final long timeoutMillis;
    /** Where {@link #future} completes with the reply (failures always complete on the callback threads). */
    final Messaging.Dispatch completion;
    volatile Timeout timeout;
    /** The connection the request was written to, so that losing it fails the request at once. */
    volatile Channel channel;

    PendingRequest(long id, Verb<?, R> verb, InetSocketAddress peer, CompletableFuture<R> future, long timeoutMillis, Messaging.Dispatch completion) {
        this.id = id;
        this.verb = verb;
        this.peer = peer;
        this.future = future;
        this.timeoutMillis = timeoutMillis;
        this.completion = completion;
    }

    void cancelTimeout() {
        Timeout t = timeout;
        if (t != null) t.cancel();
    }
}

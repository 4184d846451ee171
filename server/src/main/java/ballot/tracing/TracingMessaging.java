package ballot.tracing;

import ballot.cql.trace.CoordinatorTrace;
import ballot.cql.trace.Tracing;
import ballot.net.Messaging;
import ballot.net.Verb;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Internode messaging that carries traces to replicas. A request sent while the thread works for a traced request
 * ({@link Tracing#current()} is a {@link CoordinatorTrace}: its session, or those of a Paxos round's requests) travels as the verb's traced twin ({@link TracedVerbs}); the
 * replica handles it as usual with a {@link ReplicaTrace} as the thread's trace, and its events come back with the
 * reply, which adds them to the session before anyone waiting for the reply hears of it. Requests of untraced work
 * go out unchanged, at the cost of one thread-local read.
 */
public final class TracingMessaging implements Messaging {
    private final Messaging messaging;

    public TracingMessaging(Messaging messaging) {
        this.messaging = messaging;
    }

    @Override
    public <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout, Dispatch completion) {
        if (!(Tracing.current() instanceof CoordinatorTrace session)) return messaging.request(peer, verb, payload, timeout, completion);
        session.event("Sending " + verb.name() + " message to " + peer);
        // pooled whatever the caller asked: adding the replica's events to the session is more than a hand-over
        return messaging.request(peer, TracedVerbs.twin(verb), new TracedVerbs.Traced<>(session.id(), payload), timeout, Dispatch.POOLED)
                .thenApply(reply -> {
                    session.reply(reply.events(), verb.name() + " reply received from " + peer);
                    return reply.value();
                });
    }

    /** Installs {@code handler} for the verb, and for its traced twin on the pooled threads (recording events is more than a hand-over). */
    @Override
    public <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler, Dispatch dispatch) {
        messaging.handle(verb, handler, dispatch);
        messaging.handle(TracedVerbs.twin(verb), (traced, from) -> {
            ReplicaTrace trace = new ReplicaTrace(localAddress());
            trace.event(verb.name() + " message received from " + from);
            CompletableFuture<R> reply;
            try {
                reply = Tracing.call(trace, () -> handler.handle(traced.payload(), from));
            } catch (RuntimeException e) {
                reply = CompletableFuture.failedFuture(e);
            }
            return reply.thenApply(value -> {
                trace.event("Enqueuing response to " + from);
                return new TracedVerbs.TracedReply<>(value, trace.events());
            });
        });
    }

    @Override
    public InetSocketAddress localAddress() {
        return messaging.localAddress();
    }

    @Override
    public void close() {
        messaging.close();
    }
}

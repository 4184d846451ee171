package ballot.cluster;

import ballot.net.Codec;
import ballot.net.Messaging;
import ballot.net.MessagingException;
import ballot.net.MessagingException.Reason;
import ballot.net.Verb;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * An in-memory network of {@link Messaging} endpoints in a {@link SimWorld}: every message (request or reply) is
 * dropped with probability {@code dropRate}, delayed uniformly in [{@code delayMin}, {@code delayMax}], and lost when
 * its two ends are partitioned. A message to an address nobody listens on fails with UNREACHABLE after one delay, as
 * a refused TCP connect does. Payloads go through their codecs, as on the wire.
 */
public final class SimNetwork {
    private final SimWorld world;
    private final Map<InetSocketAddress, Endpoint> endpoints = new HashMap<>();
    private final Set<Set<InetSocketAddress>> blocked = new HashSet<>();
    private double dropRate;
    private long delayMinNanos = Duration.ofMillis(1).toNanos();
    private long delayMaxNanos = Duration.ofMillis(20).toNanos();
    private long sent;
    private long dropped;
    private long partitioned;

    public SimNetwork(SimWorld world) {
        this.world = world;
    }

    public SimNetwork lossy(double dropRate, Duration delayMin, Duration delayMax) {
        this.dropRate = dropRate;
        this.delayMinNanos = delayMin.toNanos();
        this.delayMaxNanos = delayMax.toNanos();
        return this;
    }

    /** Cuts every link between {@code side} and the other addresses. */
    public void partition(Set<InetSocketAddress> side, Set<InetSocketAddress> all) {
        for (InetSocketAddress a : side) {
            for (InetSocketAddress b : all) {
                if (!side.contains(b)) blocked.add(Set.of(a, b));
            }
        }
    }

    public void heal() {
        blocked.clear();
    }

    long sent() {
        return sent;
    }

    long dropped() {
        return dropped;
    }

    long partitioned() {
        return partitioned;
    }

    /** A new process listening on {@code address}, replacing any earlier one. */
    public Endpoint listen(InetSocketAddress address, SimScheduler scheduler) {
        Endpoint endpoint = new Endpoint(address, scheduler);
        endpoints.put(address, endpoint);
        return endpoint;
    }

    private void send(Endpoint from, InetSocketAddress to, Consumer<Endpoint> arrive, Runnable refused) {
        if (from.closed) return;
        sent++;
        long delay = to.equals(from.address) ? 0 : delayMinNanos + world.random().nextLong(delayMaxNanos - delayMinNanos + 1);
        Endpoint target = endpoints.get(to);
        if (target == null || target.closed) {
            world.at(delay, () -> {
                if (!from.closed) refused.run();
            });
            return;
        }
        if (blocked.contains(Set.of(from.address, to))) {
            partitioned++;
            return;
        }
        if (!to.equals(from.address) && world.random().nextDouble() < dropRate) {
            dropped++;
            return;
        }
        world.at(delay, () -> {
            if (!target.closed && endpoints.get(to) == target) arrive.accept(target);
        });
    }

    private static <T> byte[] encode(Codec<T> codec, T value) {
        ByteBuf out = Unpooled.buffer();
        codec.encode(value, out);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    private static <T> T decode(Codec<T> codec, byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        T value = codec.decode(in);
        if (in.isReadable()) throw new IllegalStateException(in.readableBytes() + " bytes left after decoding");
        return value;
    }

    /** One process's messaging. */
    public final class Endpoint implements Messaging {
        private record Registration<Q, R>(Verb<Q, R> verb, Handler<Q, R> handler) {}

        private final InetSocketAddress address;
        private final SimScheduler scheduler;
        private final Map<Integer, Registration<?, ?>> handlers = new HashMap<>();
        private boolean closed;

        private Endpoint(InetSocketAddress address, SimScheduler scheduler) {
            this.address = address;
            this.scheduler = scheduler;
        }

        @Override
        public <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout, Dispatch completion) {
            CompletableFuture<R> future = new CompletableFuture<>();
            if (closed) {
                future.completeExceptionally(new MessagingException(Reason.UNREACHABLE, "messaging is closed"));
                return future;
            }
            byte[] request = encode(verb.request(), payload);
            scheduler.schedule(timeout.toNanos(), () -> future.completeExceptionally(
                    new MessagingException(Reason.TIMEOUT, "no reply from " + peer + " to " + verb + " within " + timeout.toMillis() + " ms")));
            send(this, peer, target -> target.receive(verb.id(), request, address, (reply, failure) -> send(target, address, back -> {
                if (back != this) return; // the reply reached a later process on our address
                if (failure != null) future.completeExceptionally(new MessagingException(Reason.REMOTE_ERROR, peer + " answered " + verb + ": " + failure));
                else future.complete(decode(verb.response(), reply));
            }, () -> {})), () -> future.completeExceptionally(new MessagingException(Reason.UNREACHABLE, "cannot connect to " + peer)));
            return future;
        }

        private interface Reply {
            void send(byte[] reply, String failure);
        }

        private void receive(int verbId, byte[] request, InetSocketAddress from, Reply reply) {
            Registration<?, ?> registration = handlers.get(verbId);
            if (registration == null) {
                reply.send(null, "verb id " + verbId + " is unknown to this node");
                return;
            }
            run(registration, request, from, reply);
        }

        private <Q, R> void run(Registration<Q, R> registration, byte[] request, InetSocketAddress from, Reply reply) {
            CompletableFuture<R> answer;
            try {
                answer = registration.handler().handle(decode(registration.verb().request(), request), from);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            answer.whenComplete((value, error) -> {
                if (closed) return;
                if (error != null) reply.send(null, String.valueOf(error.getCause() != null ? error.getCause() : error));
                else reply.send(encode(registration.verb().response(), value), null);
            });
        }

        @Override
        public <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler, Dispatch dispatch) {
            handlers.put(verb.id(), new Registration<>(verb, handler));
        }

        @Override
        public InetSocketAddress localAddress() {
            return address;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}

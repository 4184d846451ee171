package ballot.net;

import ballot.cql.transport.NettyTransport;
import ballot.net.MessagingException.Reason;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Messaging} over TCP with Netty (docs/membership.md §1). One lazily opened {@link OutboundConnection} per peer
 * carries this node's requests and their replies; {@link InboundConnection}s carry peers' requests to the handlers,
 * which run on a bounded executor. Futures complete on a callback executor. Handlers and replies that only hand over
 * ({@link Dispatch#HAND_OVER}) run on the event loop instead; nothing else ever does.
 */
public final class NettyMessaging implements Messaging {
    private static final Logger log = LoggerFactory.getLogger(NettyMessaging.class);

    private record Registration<Q, R>(Verb<Q, R> verb, Handler<Q, R> handler, Dispatch dispatch) {}

    private final MessagingOptions options;
    private final NettyTransport transport = NettyTransport.preferred();
    private final EventLoopGroup ioGroup;
    private final Channel serverChannel;
    private final InetSocketAddress localAddress;
    private final WireFormat.Hello hello;
    private final ThreadPoolExecutor handlers;
    private final ExecutorService callbacks;
    private final HashedWheelTimer timer;
    private final ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;
    private final ConcurrentHashMap<Integer, Registration<?, ?>> registrations = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, PendingRequest<?>> pending = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<InetSocketAddress, OutboundConnection> outbound = new ConcurrentHashMap<>();
    private final Set<InboundConnection> inbound = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextId = new AtomicLong();
    private final LogThrottle throttle = new LogThrottle(TimeUnit.MINUTES.toNanos(1), System::nanoTime);
    private volatile PeerValidator validator = PeerValidator.ACCEPT_ALL;
    private volatile boolean closed;

    private NettyMessaging(MessagingOptions options) {
        this.options = options;
        ioGroup = transport.group(options.ioThreads(), new DefaultThreadFactory("messaging-io", true));
        handlers = new ThreadPoolExecutor(options.handlerThreads(), options.handlerThreads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(options.handlerQueueMax()), new DefaultThreadFactory("messaging-handler", true));
        callbacks = Executors.newFixedThreadPool(options.callbackThreads(), new DefaultThreadFactory("messaging-callback", true));
        timer = new HashedWheelTimer(new DefaultThreadFactory("messaging-timer", true), 10, TimeUnit.MILLISECONDS, 512);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(ioGroup)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FrameDecoder decoder = new FrameDecoder();
                        InboundConnection connection = new InboundConnection(NettyMessaging.this, decoder);
                        inbound.add(connection);
                        if (options.tls() != null) ch.pipeline().addLast("tls", options.tls().inboundHandler(ch, options.connectTimeout()));
                        ch.pipeline().addLast("flushes", consolidatedFlushes()).addLast("frames", decoder).addLast("server", connection);
                    }
                });
        try {
            serverChannel = bootstrap.bind(options.listenAddress()).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            shutDownThreads();
            throw new IllegalStateException("internode messaging cannot listen on " + options.listenAddress() + ": " + e, e);
        }
        localAddress = (InetSocketAddress) serverChannel.localAddress();
        hello = new WireFormat.Hello(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX, options.clusterName(), options.hostId(), localAddress);
        log.info("internode messaging listening address={} transport={} cluster={} host_id={} messaging_version={} tls={}", localAddress, transport,
                options.clusterName(), options.hostId(), WireFormat.versions(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX),
                options.tls() == null ? "off" : "all");
    }

    /** Binds the listen address and returns messaging ready to send and receive. */
    public static NettyMessaging start(MessagingOptions options) {
        return new NettyMessaging(options);
    }

    /** Installs what decides, at the handshake, whether a peer's host id and address may connect. */
    public void peerValidator(PeerValidator validator) {
        this.validator = validator == null ? PeerValidator.ACCEPT_ALL : validator;
    }

    /**
     * Frames written from other threads (Paxos lanes, request threads) while the event loop is busy share one socket
     * write: a flush outside a read is deferred to a task behind the writes already queued, so N messages to a peer
     * queued together cost one system call, not N. A lone message is flushed by that task at once.
     */
    static ChannelHandler consolidatedFlushes() {
        return new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true);
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler, Dispatch dispatch) {
        registrations.compute(verb.id(), (id, existing) -> {
            if (existing != null && !existing.verb().name().equals(verb.name())) {
                throw new IllegalArgumentException("verb id " + id + " is already registered as " + existing.verb() + "; cannot register " + verb);
            }
            return new Registration<>(verb, handler, dispatch);
        });
    }

    @Override
    public <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout, Dispatch completion) {
        CompletableFuture<R> future = new CompletableFuture<>();
        long timeoutMillis = Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        PendingRequest<R> request = new PendingRequest<>(nextId.incrementAndGet(), verb, peer, future, timeoutMillis, completion);
        if (closed) {
            future.completeExceptionally(new MessagingException(Reason.UNREACHABLE, "messaging is closed"));
            return future;
        }
        if (peer.equals(localAddress)) {
            loopback(request, verb, payload);
            return future;
        }
        ByteBuf frame = WireFormat.begin(allocator, WireFormat.REQUEST);
        try {
            frame.writeLong(request.id);
            frame.writeShort(verb.id());
            frame.writeInt((int) timeoutMillis);
            verb.request().encode(payload, frame);
            WireFormat.finish(frame);
            if (frame.readableBytes() - 4 > options.frameBytesMax()) {
                throw new IllegalArgumentException("request " + verb + " to " + peer + " is " + (frame.readableBytes() - 4)
                        + " bytes; limit is " + options.frameBytesMax() + " (frameBytesMax)");
            }
        } catch (RuntimeException e) {
            frame.release();
            future.completeExceptionally(e);
            return future;
        }
        track(request);
        outbound.computeIfAbsent(peer, p -> new OutboundConnection(this, p)).send(request, frame);
        if (closed) closeConnections(); // raced with close(): make sure nothing is left behind
        return future;
    }

    private void track(PendingRequest<?> request) {
        pending.put(request.id, request);
        request.timeout = timer.newTimeout(t -> fail(request, Reason.TIMEOUT, "no reply from " + request.peer + " to "
                + request.verb + " within " + request.timeoutMillis + " ms"), request.timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** A request to ourselves: encoded and decoded as on the network, without a socket. */
    private <Q, R> void loopback(PendingRequest<R> request, Verb<Q, R> verb, Q payload) {
        @SuppressWarnings("unchecked")
        Registration<Q, R> registration = (Registration<Q, R>) registrations.get(verb.id());
        if (registration == null) {
            request.future.completeExceptionally(new MessagingException(Reason.REMOTE_ERROR, "verb " + verb + " has no handler on this node"));
            return;
        }
        ByteBuf encoded = allocator.buffer();
        try {
            verb.request().encode(payload, encoded);
        } catch (RuntimeException e) {
            encoded.release();
            request.future.completeExceptionally(e);
            return;
        }
        track(request);
        try {
            handlers.execute(() -> {
                Q decoded;
                try {
                    decoded = registration.verb().request().decode(encoded);
                } catch (RuntimeException e) {
                    fail(request, Reason.REMOTE_ERROR, "cannot decode request " + verb + ": " + e.getMessage());
                    return;
                } finally {
                    encoded.release();
                }
                invoke(registration, decoded, localAddress).whenComplete((reply, error) -> {
                    if (error != null) {
                        failFromHandler(request, verb, error);
                        return;
                    }
                    ByteBuf out = allocator.buffer();
                    try {
                        registration.verb().response().encode(reply, out);
                        complete(request, verb.response().decode(out));
                    } catch (RuntimeException e) {
                        fail(request, Reason.REMOTE_ERROR, "cannot encode or decode the reply to " + verb + ": " + e.getMessage());
                    } finally {
                        out.release();
                    }
                });
            });
        } catch (RejectedExecutionException e) {
            encoded.release();
            fail(request, Reason.OVERLOADED, "handler queue of this node is full (" + options.handlerQueueMax() + ", handlerQueueMax)");
        }
    }

    private static <Q, R> CompletableFuture<R> invoke(Registration<Q, R> registration, Q request, InetSocketAddress from) {
        try {
            CompletableFuture<R> reply = registration.handler().handle(request, from);
            return reply != null ? reply : CompletableFuture.failedFuture(new IllegalStateException("handler of " + registration.verb() + " returned null"));
        } catch (RuntimeException | Error e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void failFromHandler(PendingRequest<?> request, Verb<?, ?> verb, Throwable error) {
        Throwable cause = unwrap(error);
        logHandlerFailure(verb, cause);
        Reason reason = cause instanceof MessagingException m && m.reason() == Reason.OVERLOADED ? Reason.OVERLOADED : Reason.REMOTE_ERROR;
        fail(request, reason, "handler of " + verb + " failed: " + cause);
    }

    private void logHandlerFailure(Verb<?, ?> verb, Throwable cause) {
        if (cause instanceof MessagingException) {
            log.debug("handler of {} failed: {}", verb, cause.getMessage());
        } else if (throttle.allow("handler " + verb.id() + " " + cause.getClass().getName())) {
            log.warn("handler of {} failed", verb, cause);
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    // ---------------------------------------------------------------- inbound requests

    /**
     * Runs a peer's request on the handler executor, or here if its handler only hands over ({@link Dispatch#HAND_OVER});
     * {@code payload} is owned by this call. Event loop.
     */
    void dispatch(InboundConnection connection, long id, int verbId, int timeoutMillis, ByteBuf payload) {
        Registration<?, ?> registration = registrations.get(verbId);
        if (registration == null) {
            payload.release();
            connection.reply(failure(id, verbId, WireFormat.FAILURE_REMOTE_ERROR, "verb id " + verbId + " is unknown to this node"));
            connection.done();
            return;
        }
        long expiresAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMillis));
        if (registration.dispatch() == Dispatch.HAND_OVER) {
            run(registration, connection, id, payload, expiresAtNanos);
            return;
        }
        try {
            handlers.execute(() -> run(registration, connection, id, payload, expiresAtNanos));
        } catch (RejectedExecutionException e) {
            payload.release();
            connection.reply(failure(id, verbId, WireFormat.FAILURE_OVERLOADED, "handler queue of " + localAddress + " is full ("
                    + options.handlerQueueMax() + ", handlerQueueMax)"));
            connection.done();
        }
    }

    private <Q, R> void run(Registration<Q, R> registration, InboundConnection connection, long id, ByteBuf payload, long expiresAtNanos) {
        Verb<Q, R> verb = registration.verb();
        Q request;
        try {
            if (System.nanoTime() - expiresAtNanos > 0) {
                log.debug("dropped expired request {} id={} from={}", verb, id, connection.from());
                connection.done();
                return;
            }
            request = verb.request().decode(payload);
        } catch (RuntimeException e) {
            connection.reply(failure(id, verb.id(), WireFormat.FAILURE_REMOTE_ERROR, "cannot decode request " + verb + ": " + e.getMessage()));
            connection.done();
            return;
        } finally {
            payload.release();
        }
        invoke(registration, request, connection.from()).whenComplete((reply, error) -> {
            try {
                connection.reply(replyFrame(id, verb, reply, error));
            } finally {
                connection.done();
            }
        });
    }

    private <R> ByteBuf replyFrame(long id, Verb<?, R> verb, R reply, Throwable error) {
        if (error == null) {
            ByteBuf frame = WireFormat.begin(allocator, WireFormat.RESPONSE);
            try {
                frame.writeLong(id);
                frame.writeShort(verb.id());
                verb.response().encode(reply, frame);
                WireFormat.finish(frame);
                if (frame.readableBytes() - 4 <= options.frameBytesMax()) return frame;
                error = new IllegalArgumentException("reply to " + verb + " is " + (frame.readableBytes() - 4) + " bytes; limit is "
                        + options.frameBytesMax() + " (frameBytesMax)");
            } catch (RuntimeException e) {
                error = e;
            }
            frame.release();
        }
        Throwable cause = unwrap(error);
        logHandlerFailure(verb, cause);
        boolean overloaded = cause instanceof MessagingException m && m.reason() == Reason.OVERLOADED;
        return failure(id, verb.id(), overloaded ? WireFormat.FAILURE_OVERLOADED : WireFormat.FAILURE_REMOTE_ERROR, String.valueOf(cause));
    }

    private ByteBuf failure(long id, int verbId, int code, String message) {
        ByteBuf frame = WireFormat.begin(allocator, WireFormat.FAILURE);
        frame.writeLong(id);
        frame.writeShort(verbId);
        frame.writeByte(code);
        Codecs.writeShortString(frame, message.length() > 2000 ? message.substring(0, 2000) : message);
        return WireFormat.finish(frame);
    }

    /** Decides the handshake of {@code connection}: null to accept (and it is recorded), else the refusal. Event loop. */
    synchronized WireFormat.Refuse admit(InboundConnection connection, WireFormat.Hello peer) {
        WireFormat.RefuseReason reason = null;
        String message = null;
        if (WireFormat.commonVersion(peer.versionMin(), peer.versionMax()) < 0) {
            reason = WireFormat.RefuseReason.VERSION;
            message = "messaging version " + WireFormat.versions(peer.versionMin(), peer.versionMax()) + " is unknown to "
                    + localAddress + ", which speaks " + WireFormat.versions(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX);
        } else if (!peer.clusterName().equals(options.clusterName())) {
            reason = WireFormat.RefuseReason.CLUSTER_NAME;
            message = "cluster name '" + peer.clusterName() + "' does not match '" + options.clusterName() + "' of " + localAddress;
        } else if (peer.hostId().equals(options.hostId())) {
            reason = WireFormat.RefuseReason.HOST_ID;
            message = "host id " + peer.hostId() + " is the host id of " + localAddress + " itself";
        } else if (peer.address().equals(localAddress)) {
            reason = WireFormat.RefuseReason.ADDRESS;
            message = "address " + peer.address() + " is the address of host id " + options.hostId() + " itself";
        } else {
            for (InboundConnection other : inbound) {
                WireFormat.Hello known = other.peer();
                if (other == connection || known == null) continue;
                if (known.hostId().equals(peer.hostId()) && !known.address().equals(peer.address())) {
                    reason = WireFormat.RefuseReason.HOST_ID;
                    message = "host id " + peer.hostId() + " is already connected from " + known.address();
                    break;
                }
                if (known.address().equals(peer.address()) && !known.hostId().equals(peer.hostId())) {
                    reason = WireFormat.RefuseReason.ADDRESS;
                    message = "address " + peer.address() + " is already connected as host id " + known.hostId();
                    break;
                }
            }
            if (reason == null) {
                String refusal = validator.refusal(peer.hostId(), peer.address());
                if (refusal != null) {
                    reason = WireFormat.RefuseReason.OTHER;
                    message = refusal;
                }
            }
        }
        if (reason != null) return new WireFormat.Refuse(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX, reason, message);
        connection.accepted(peer);
        return null;
    }

    void inboundClosed(InboundConnection connection) {
        inbound.remove(connection);
    }

    // ---------------------------------------------------------------- replies and completion

    /** A RESPONSE or FAILURE frame, positioned after the type. Event loop; the frame stays owned by the caller. */
    void onReply(byte type, ByteBuf frame) {
        Codecs.need(frame, 10, "reply header");
        long id = frame.readLong();
        frame.readUnsignedShort();
        PendingRequest<?> request = pending.remove(id);
        if (request == null) {
            log.debug("late reply id={} (timed out or failed already)", id);
            return;
        }
        request.cancelTimeout();
        if (type == WireFormat.FAILURE) {
            Codecs.need(frame, 1, "failure code");
            int code = frame.readUnsignedByte();
            String message = Codecs.readShortString(frame);
            Reason reason = code == WireFormat.FAILURE_OVERLOADED ? Reason.OVERLOADED : Reason.REMOTE_ERROR;
            completeExceptionally(request, new MessagingException(reason, request.peer + " answered " + request.verb + ": " + message));
            return;
        }
        if (request.completion == Dispatch.HAND_OVER) {
            decodeAndComplete(request, frame);
            return;
        }
        ByteBuf payload = frame.retain();
        onCallbackThread(() -> {
            try {
                decodeAndComplete(request, payload);
            } finally {
                payload.release();
            }
        });
    }

    private <R> void decodeAndComplete(PendingRequest<R> request, ByteBuf payload) {
        R value;
        try {
            value = request.verb.response().decode(payload);
        } catch (RuntimeException e) {
            request.future.completeExceptionally(new MessagingException(Reason.REMOTE_ERROR, "malformed reply from "
                    + request.peer + " to " + request.verb + ": " + e.getMessage()));
            return;
        }
        request.future.complete(value);
    }

    private <R> void complete(PendingRequest<R> request, R value) {
        if (pending.remove(request.id, request)) {
            request.cancelTimeout();
            onCallbackThread(() -> request.future.complete(value));
        }
    }

    /** Fails {@code request} unless it was completed already. Any thread. */
    void fail(PendingRequest<?> request, Reason reason, String message) {
        if (pending.remove(request.id, request)) {
            request.cancelTimeout();
            completeExceptionally(request, new MessagingException(reason, message));
        }
    }

    private void completeExceptionally(PendingRequest<?> request, MessagingException error) {
        onCallbackThread(() -> request.future.completeExceptionally(error));
    }

    /** Fails every request written to {@code channel} and not yet answered. */
    void failInFlight(Channel channel, String message) {
        for (PendingRequest<?> request : pending.values()) {
            if (request.channel == channel) fail(request, Reason.UNREACHABLE, message + "; " + request.verb + " may or may not have run");
        }
    }

    private void onCallbackThread(Runnable task) {
        try {
            callbacks.execute(task);
        } catch (RejectedExecutionException e) {
            task.run(); // closing: complete here rather than never
        }
    }

    // ---------------------------------------------------------------- for the connections

    MessagingOptions options() {
        return options;
    }

    EventLoopGroup ioGroup() {
        return ioGroup;
    }

    /** The transport of {@link #ioGroup()}: outbound channels must be of its kind. */
    NettyTransport transport() {
        return transport;
    }

    WireFormat.Hello hello() {
        return hello;
    }

    LogThrottle throttle() {
        return throttle;
    }

    // ---------------------------------------------------------------- lifecycle

    /** Stops listening, closes every connection, fails every pending request with UNREACHABLE and releases the threads. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        closeConnections();
        for (PendingRequest<?> request : pending.values()) fail(request, Reason.UNREACHABLE, "messaging is closed");
        timer.stop();
        shutDownThreads();
        log.info("internode messaging stopped address={}", localAddress);
    }

    private void closeConnections() {
        outbound.values().forEach(OutboundConnection::close);
        for (InboundConnection connection : inbound) connection.close();
    }

    private void shutDownThreads() {
        ioGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        handlers.shutdown();
        callbacks.shutdown();
        try {
            if (!handlers.awaitTermination(5, TimeUnit.SECONDS)) handlers.shutdownNow();
            if (!callbacks.awaitTermination(5, TimeUnit.SECONDS)) callbacks.shutdownNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

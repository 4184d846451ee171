package ballot.net;

import ballot.net.MessagingException.Reason;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's connection to one peer, on which its requests to that peer travel (replies come back on it). Connects
 * lazily, handshakes, queues requests while connecting, and backs off after a failure (docs/membership.md §1).
 * Invariant: {@code queuedMessages}/{@code queuedBytes} count exactly the requests accepted and not yet written to the
 * socket (or failed), and never exceed the limits. All state is guarded by {@code this}.
 */
final class OutboundConnection {
    private static final Logger log = LoggerFactory.getLogger(OutboundConnection.class);

    private enum State { IDLE, CONNECTING, READY, BACKOFF, CLOSED }

    private record Queued(PendingRequest<?> request, ByteBuf frame) {}

    private final NettyMessaging owner;
    private final InetSocketAddress peer;
    private final ArrayDeque<Queued> waiting = new ArrayDeque<>();
    private State state = State.IDLE;
    private Channel channel;
    private int queuedMessages;
    private long queuedBytes;
    private long backoffNanos;
    private long backoffUntilNanos;
    private String lastError = "";
    private Reason lastErrorReason = Reason.UNREACHABLE;

    OutboundConnection(NettyMessaging owner, InetSocketAddress peer) {
        this.owner = owner;
        this.peer = peer;
    }

    /** Sends {@code frame} (owned by this call from now on) for {@code request}, or fails the request at once. */
    synchronized void send(PendingRequest<?> request, ByteBuf frame) {
        int size = frame.readableBytes();
        if (state == State.CLOSED) {
            frame.release();
            owner.fail(request, Reason.UNREACHABLE, "messaging is closed");
            return;
        }
        if (state == State.BACKOFF) {
            long waitNanos = backoffUntilNanos - System.nanoTime();
            if (waitNanos > 0) {
                frame.release();
                owner.fail(request, lastErrorReason, "peer " + peer + " is unreachable (" + lastError + "); next attempt in "
                        + TimeUnit.NANOSECONDS.toMillis(waitNanos) + " ms");
                return;
            }
            state = State.IDLE;
        }
        MessagingOptions options = owner.options();
        if (queuedMessages >= options.outboundQueueMessagesMax() || queuedBytes + size > options.outboundQueueBytesMax()) {
            frame.release();
            owner.fail(request, Reason.OVERLOADED, "outbound queue to " + peer + " is full: " + queuedMessages + " messages, "
                    + queuedBytes + " bytes; limits are " + options.outboundQueueMessagesMax() + " (outboundQueueMessagesMax) and "
                    + options.outboundQueueBytesMax() + " (outboundQueueBytesMax)");
            return;
        }
        queuedMessages++;
        queuedBytes += size;
        if (state == State.READY) {
            write(request, frame);
        } else {
            waiting.add(new Queued(request, frame));
            if (state == State.IDLE) connect();
        }
    }

    private void write(PendingRequest<?> request, ByteBuf frame) {
        int size = frame.readableBytes();
        Channel ch = channel;
        request.channel = ch;
        ch.writeAndFlush(frame).addListener(f -> {
            written(size);
            if (!f.isSuccess()) owner.fail(request, Reason.UNREACHABLE, "cannot send to " + peer + ": " + f.cause());
        });
    }

    private synchronized void written(int size) {
        queuedMessages--;
        queuedBytes -= size;
    }

    private void connect() {
        state = State.CONNECTING;
        MessagingOptions options = owner.options();
        Bootstrap bootstrap = new Bootstrap()
                .group(owner.ioGroup())
                .channel(owner.transport().socketChannel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FrameDecoder decoder = new FrameDecoder();
                        if (options.tls() != null) ch.pipeline().addLast("tls", options.tls().outboundHandler(ch, peer, options.connectTimeout()));
                        ch.pipeline().addLast("flushes", NettyMessaging.consolidatedFlushes()).addLast("frames", decoder).addLast("client", new ClientHandler(decoder));
                    }
                });
        // bind to our listen IP so that the peer sees the address we announce
        ChannelFuture connecting;
        try {
            connecting = bootstrap.connect(peer, new InetSocketAddress(owner.localAddress().getAddress(), 0));
        } catch (RuntimeException e) { // the event loop is shutting down
            state = State.BACKOFF;
            backoffUntilNanos = System.nanoTime() + options.reconnectDelayMin().toNanos();
            lastError = "cannot connect: " + e;
            failWaiting(Reason.UNREACHABLE, "peer " + peer + ": " + lastError);
            return;
        }
        Channel ch = connecting.channel();
        channel = ch;
        log.debug("connecting to peer={}", peer);
        connecting.addListener(f -> {
            if (!f.isSuccess()) connectFailed(ch, Reason.UNREACHABLE, "cannot connect: " + f.cause().getMessage(), false);
        });
    }

    private synchronized void ready(Channel ch, WireFormat.Welcome welcome) {
        if (channel != ch || state != State.CONNECTING) return;
        state = State.READY;
        backoffNanos = 0;
        log.info("connected to peer={} host_id={} messaging_version={}", peer, welcome.hostId(), welcome.version());
        while (!waiting.isEmpty()) {
            Queued next = waiting.poll();
            if (next.request().future.isDone()) { // timed out while we were connecting
                written(next.frame().readableBytes());
                next.frame().release();
            } else {
                write(next.request(), next.frame());
            }
        }
    }

    /** A failed connect or handshake: fail what waits, and back off (the longest back-off after a refusal). */
    private synchronized void connectFailed(Channel ch, Reason reason, String error, boolean refused) {
        if (channel != ch || state == State.CLOSED) return;
        channel = null;
        MessagingOptions options = owner.options();
        long min = options.reconnectDelayMin().toNanos();
        long max = options.reconnectDelayMax().toNanos();
        backoffNanos = refused ? max : backoffNanos == 0 ? min : Math.min(max, backoffNanos * 2);
        backoffUntilNanos = System.nanoTime() + backoffNanos;
        lastError = error;
        lastErrorReason = reason;
        state = State.BACKOFF;
        failWaiting(reason, "peer " + peer + ": " + error);
        if (!refused && owner.throttle().allow("connect " + peer)) {
            log.warn("cannot reach peer={}: {}; retrying on demand with back-off up to {} ms", peer, error, options.reconnectDelayMax().toMillis());
        }
        ch.close();
    }

    private synchronized void closed(Channel ch) {
        if (channel != ch) return;
        if (state == State.READY) {
            channel = null;
            state = State.IDLE;
            log.info("connection to peer={} closed; reconnecting on the next request", peer);
            owner.failInFlight(ch, "connection to " + peer + " was lost");
        } else if (state == State.CONNECTING) {
            connectFailed(ch, Reason.UNREACHABLE, "connection closed during the handshake", false);
        }
    }

    private void failWaiting(Reason reason, String message) {
        while (!waiting.isEmpty()) {
            Queued next = waiting.poll();
            queuedMessages--;
            queuedBytes -= next.frame().readableBytes();
            next.frame().release();
            owner.fail(next.request(), reason, message);
        }
    }

    synchronized void close() {
        if (state == State.CLOSED) return;
        state = State.CLOSED;
        failWaiting(Reason.UNREACHABLE, "messaging is closed");
        if (channel != null) channel.close();
        channel = null;
    }

    /** The client end of the handshake, then replies. Runs on the event loop. */
    private final class ClientHandler extends ChannelInboundHandlerAdapter {
        private final FrameDecoder decoder;
        private boolean handshaken;

        ClientHandler(FrameDecoder decoder) {
            this.decoder = decoder;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(WireFormat.hello(ctx.alloc(), owner.hello()));
            ctx.executor().schedule(() -> {
                if (!handshaken) connectFailed(ctx.channel(), Reason.UNREACHABLE, "no handshake answer within " + owner.options().connectTimeout().toMillis() + " ms", false);
            }, owner.options().connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                byte type = frame.readByte();
                if (!handshaken) {
                    handshake(ctx, type, frame);
                } else if (type == WireFormat.RESPONSE || type == WireFormat.FAILURE) {
                    owner.onReply(type, frame);
                } else {
                    protocolError(ctx, "unexpected frame type " + type + " after the handshake");
                }
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                protocolError(ctx, "malformed frame: " + e.getMessage());
            } finally {
                frame.release();
            }
        }

        private void handshake(ChannelHandlerContext ctx, byte type, ByteBuf frame) {
            if (type == WireFormat.REFUSE) {
                WireFormat.Refuse refuse = WireFormat.readRefuse(frame);
                if (owner.throttle().allow("refused " + peer + " " + refuse.reason())) {
                    log.error("peer={} refused this node's connection reason={}: {} (peer speaks messaging version {}, this node {})",
                            peer, refuse.reason(), refuse.message(), WireFormat.versions(refuse.versionMin(), refuse.versionMax()),
                            WireFormat.versions(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX));
                }
                connectFailed(ctx.channel(), Reason.REFUSED, "refused the connection: " + refuse.message(), true);
            } else if (type == WireFormat.WELCOME) {
                WireFormat.Welcome welcome = WireFormat.readWelcome(frame);
                String problem = null;
                if (welcome.version() < WireFormat.VERSION_MIN || welcome.version() > WireFormat.VERSION_MAX) {
                    problem = "it chose messaging version " + welcome.version() + ", which this node does not speak ("
                            + WireFormat.versions(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX) + ")";
                } else if (!welcome.clusterName().equals(owner.options().clusterName())) {
                    problem = "it is in cluster '" + welcome.clusterName() + "', this node in '" + owner.options().clusterName() + "'";
                }
                if (problem != null) {
                    if (owner.throttle().allow("refusing " + peer)) log.error("refusing peer={} host_id={}: {}", peer, welcome.hostId(), problem);
                    connectFailed(ctx.channel(), Reason.REFUSED, "refused by this node: " + problem, true);
                    return;
                }
                handshaken = true;
                decoder.frameBytesMax(owner.options().frameBytesMax());
                ready(ctx.channel(), welcome);
            } else {
                protocolError(ctx, "expected WELCOME or REFUSE, got frame type " + type);
            }
        }

        private void protocolError(ChannelHandlerContext ctx, String message) {
            if (owner.throttle().allow("protocol " + peer)) log.warn("closing connection to peer={}: {}", peer, message);
            if (!handshaken) connectFailed(ctx.channel(), Reason.UNREACHABLE, message, false);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closed(ctx.channel());
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            String tls = InternodeTls.explain(cause);
            protocolError(ctx, tls != null ? tls : String.valueOf(cause.getMessage() == null ? cause : cause.getMessage()));
        }
    }
}

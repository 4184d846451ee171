package ballot.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A peer's connection to this node: the accepting end of the handshake, then the peer's requests, which go to
 * {@link NettyMessaging#dispatch}. Stops reading while {@code inboundRequestsMax} requests are in progress and resumes
 * at half of that (docs/membership.md §1).
 */
final class InboundConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(InboundConnection.class);

    private final NettyMessaging owner;
    private final FrameDecoder decoder;
    private final AtomicInteger inProgress = new AtomicInteger();
    private volatile WireFormat.Hello peer;
    private volatile Channel channel;

    InboundConnection(NettyMessaging owner, FrameDecoder decoder) {
        this.owner = owner;
        this.decoder = decoder;
    }

    /** The peer as it introduced itself, or null before the handshake. */
    WireFormat.Hello peer() {
        return peer;
    }

    void accepted(WireFormat.Hello hello) {
        peer = hello;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        ctx.executor().schedule(() -> {
            if (peer == null && ctx.channel().isActive()) {
                log.warn("closing connection from {}: no handshake within {} ms", ctx.channel().remoteAddress(), owner.options().connectTimeout().toMillis());
                ctx.close();
            }
        }, owner.options().connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            byte type = frame.readByte();
            if (peer == null) {
                if (type != WireFormat.HELLO) {
                    protocolError(ctx, "expected HELLO, got frame type " + type + " (not a Ballot node?)");
                    return;
                }
                handshake(ctx, WireFormat.readHello(frame));
            } else if (type == WireFormat.REQUEST) {
                Codecs.need(frame, 14, "request header");
                long id = frame.readLong();
                int verb = frame.readUnsignedShort();
                int timeoutMillis = frame.readInt();
                if (inProgress.incrementAndGet() >= owner.options().inboundRequestsMax()) ctx.channel().config().setAutoRead(false);
                owner.dispatch(this, id, verb, timeoutMillis, frame.retain());
            } else {
                protocolError(ctx, "unexpected frame type " + type + " after the handshake");
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            protocolError(ctx, "malformed frame: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    private void handshake(ChannelHandlerContext ctx, WireFormat.Hello hello) {
        WireFormat.Refuse refusal = owner.admit(this, hello);
        if (refusal != null) {
            if (owner.throttle().allow("refuse " + hello.address() + " " + refusal.reason())) {
                log.warn("refused internode connection from {} (announces {} host_id={}) reason={}: {}", ctx.channel().remoteAddress(),
                        hello.address(), hello.hostId(), refusal.reason(), refusal.message());
            }
            ctx.writeAndFlush(WireFormat.refuse(ctx.alloc(), refusal)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        decoder.frameBytesMax(owner.options().frameBytesMax());
        int version = WireFormat.commonVersion(hello.versionMin(), hello.versionMax());
        ctx.writeAndFlush(WireFormat.welcome(ctx.alloc(), new WireFormat.Welcome(version, owner.options().clusterName(),
                owner.options().hostId(), owner.localAddress())));
        log.debug("accepted internode connection from peer={} host_id={} version={}", hello.address(), hello.hostId(), version);
    }

    /** Writes a reply frame (owned by this call). Any thread. */
    void reply(ByteBuf frame) {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            frame.release();
            return;
        }
        ch.writeAndFlush(frame, ch.voidPromise());
    }

    /** A dispatched request is finished (answered, failed or dropped). Any thread. */
    void done() {
        int now = inProgress.decrementAndGet();
        Channel ch = channel;
        if (ch != null && now <= owner.options().inboundRequestsMax() / 2 && !ch.config().isAutoRead()) ch.config().setAutoRead(true);
    }

    void close() {
        Channel ch = channel;
        if (ch != null) ch.close();
    }

    InetSocketAddress from() {
        return peer.address();
    }

    private void protocolError(ChannelHandlerContext ctx, String message) {
        if (owner.throttle().allow("inbound protocol " + ctx.channel().remoteAddress())) {
            log.warn("closing internode connection from {}{}: {}", ctx.channel().remoteAddress(),
                    peer == null ? "" : " (" + peer.address() + ")", message);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        owner.inboundClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        String tls = InternodeTls.explain(cause);
        protocolError(ctx, tls != null ? tls : String.valueOf(cause.getMessage() == null ? cause : cause.getMessage()));
    }
}

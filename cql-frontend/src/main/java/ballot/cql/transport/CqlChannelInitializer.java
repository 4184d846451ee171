package ballot.cql.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.ssl.OptionalSslHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a client connection's pipeline: TLS when the server has a context, inbound framing, outbound framing, then
 * the {@link Connection}; or closes the connection at once if it would pass the server's connection limits (as
 * Cassandra's connection limit handler).
 */
final class CqlChannelInitializer extends ChannelInitializer<Channel> {
    private static final Logger log = LoggerFactory.getLogger(CqlChannelInitializer.class);

    private final CqlServerOptions options;
    private final RequestHandler handler;
    private final EventBroadcaster events;
    private final ChannelGroup channels;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, AtomicInteger> openByAddress = new ConcurrentHashMap<>();
    private final RepeatedWarning refusals = new RepeatedWarning();
    private final PartialFrames partialFrames;
    private final TlsHandshakes tlsHandshakes = new TlsHandshakes();

    CqlChannelInitializer(CqlServerOptions options, RequestHandler handler, EventBroadcaster events, ChannelGroup channels) {
        this.options = options;
        this.handler = handler;
        this.events = events;
        this.channels = channels;
        this.partialFrames = new PartialFrames(options.partialFrameBytesMax(), options.frameAssemblyTimeout());
    }

    @Override
    protected void initChannel(Channel channel) {
        if (!admit(channel)) return;
        if (channels != null) channels.add(channel);
        InboundFraming inbound = new InboundFraming(options.frameBytesMax(), partialFrames);
        OutboundFraming outbound = new OutboundFraming();
        if (options.tls() != null) {
            // OptionalSslHandler looks at the first bytes: a TLS record gets an SslHandler, anything else is plaintext.
            channel.pipeline()
                    .addLast("tls", options.tlsOptional() ? new OptionalSslHandler(options.tls()) : options.tls().newHandler(channel.alloc()))
                    .addLast("tlsHandshakes", tlsHandshakes);
        }
        channel.pipeline()
                // Responses finished close together leave in one flush (one syscall) instead of one each.
                .addLast("flushConsolidation", new io.netty.handler.flush.FlushConsolidationHandler(256, true))
                .addLast("inboundFraming", inbound)
                .addLast("outboundFraming", outbound)
                .addLast("connection", new Connection(options, handler, events, inbound, outbound));
    }

    /** Counts the connection in, until it closes; false (and it is closed) if that passes a limit. */
    private boolean admit(Channel channel) {
        InetAddress address = channel.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
        AtomicInteger fromAddress = address == null ? new AtomicInteger() : openByAddress.computeIfAbsent(address, k -> new AtomicInteger());
        int total = open.incrementAndGet();
        int perAddress = fromAddress.incrementAndGet();
        channel.closeFuture().addListener(f -> {
            open.decrementAndGet();
            if (fromAddress.decrementAndGet() == 0 && address != null) openByAddress.remove(address, fromAddress);
        });
        String limit = null;
        if (options.connectionsMax() > 0 && total > options.connectionsMax()) {
            limit = options.connectionsMax() + " connections in all (native_transport_max_concurrent_connections)";
        } else if (options.connectionsPerAddressMax() > 0 && perAddress > options.connectionsPerAddressMax()) {
            limit = options.connectionsPerAddressMax() + " connections from " + address.getHostAddress()
                    + " (native_transport_max_concurrent_connections_per_ip)";
        }
        if (limit == null) return true;
        long count = refusals.occurred();
        if (count > 0) log.warn("refused a client connection from {}: the limit is {}; {} refused so far", channel.remoteAddress(), limit, count);
        channel.close();
        return false;
    }
}

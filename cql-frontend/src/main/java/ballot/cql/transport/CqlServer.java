package ballot.cql.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native-protocol server: accepts client connections and runs each through a {@link Connection}. Statements go
 * to the {@link RequestHandler}; the rest of the node publishes events through {@link #events()}.
 */
public final class CqlServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CqlServer.class);

    private final CqlServerOptions options;
    private final RequestHandler handler;
    private final EventBroadcaster events = new EventBroadcaster();

    private EventLoopGroup acceptors;
    private EventLoopGroup workers;
    private ChannelGroup channels;
    private Channel serverChannel;

    public CqlServer(CqlServerOptions options, RequestHandler handler) {
        this.options = options;
        this.handler = handler;
    }

    /**
     * Binds and starts accepting connections; returns once bound.
     *
     * @return the bound address (the real port when {@code options.port()} is 0)
     * @throws IllegalStateException when already started or the address cannot be bound
     */
    public synchronized InetSocketAddress start() {
        if (serverChannel != null) throw new IllegalStateException("CQL server already started on " + boundAddress());
        NettyTransport transport = NettyTransport.preferred();
        acceptors = transport.group(1, new DefaultThreadFactory("cql-accept"));
        workers = transport.group(0, new DefaultThreadFactory("cql-io"));
        channels = new DefaultChannelGroup("cql-clients", GlobalEventExecutor.INSTANCE);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(transport.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new CqlChannelInitializer(options, handler, events, channels));
        try {
            serverChannel = bootstrap.bind(options.bindAddress(), options.port()).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            shutDownGroups();
            throw new IllegalStateException("CQL server cannot listen on " + options.bindAddress().getHostAddress() + ":"
                    + options.port() + ": " + e, e);
        }
        log.info("cql server listening address={} transport={} tls={} frameBytesMax={} inFlightRequestsMax={}", boundAddress(), transport,
                options.tls() == null ? "off" : options.tlsOptional() ? "optional" : "required", options.frameBytesMax(),
                options.inFlightRequestsMax());
        return boundAddress();
    }

    public synchronized InetSocketAddress boundAddress() {
        return serverChannel == null ? null : (InetSocketAddress) serverChannel.localAddress();
    }

    /** Client connections open now (a gauge for the node's metrics). */
    public synchronized int connections() {
        return channels == null ? 0 : channels.size();
    }

    /** Every client connection open now, as {@code system_views.clients} shows them. */
    public List<ConnectedClient> clients() {
        ChannelGroup open;
        synchronized (this) {
            open = channels;
        }
        if (open == null) return List.of();
        boolean authenticates = options.authenticator().requiresAuthentication();
        List<ConnectedClient> clients = new ArrayList<>();
        for (Channel channel : open) {
            Connection connection = channel.pipeline().get(Connection.class);
            if (connection != null && channel.remoteAddress() instanceof InetSocketAddress) clients.add(connection.describe(channel, authenticates));
        }
        return clients;
    }

    /** Where to publish events for registered clients. */
    public EventBroadcaster events() {
        return events;
    }

    /** Stops accepting, closes every client connection, and releases the threads. Idempotent. */
    public synchronized void stop() {
        if (serverChannel == null) return;
        InetSocketAddress address = boundAddress();
        serverChannel.close().syncUninterruptibly();
        channels.close().awaitUninterruptibly();
        shutDownGroups();
        serverChannel = null;
        log.info("cql server stopped address={}", address);
    }

    @Override
    public void close() {
        stop();
    }

    private void shutDownGroups() {
        acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}

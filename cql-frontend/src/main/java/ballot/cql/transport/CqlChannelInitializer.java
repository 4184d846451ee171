package ballot.cql.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;

/** Builds a client connection's pipeline: inbound framing, outbound framing, then the {@link Connection}. */
final class CqlChannelInitializer extends ChannelInitializer<Channel> {
    private final CqlServerOptions options;
    private final RequestHandler handler;
    private final EventBroadcaster events;
    private final ChannelGroup channels;

    CqlChannelInitializer(CqlServerOptions options, RequestHandler handler, EventBroadcaster events, ChannelGroup channels) {
        this.options = options;
        this.handler = handler;
        this.events = events;
        this.channels = channels;
    }

    @Override
    protected void initChannel(Channel channel) {
        if (channels != null) channels.add(channel);
        InboundFraming inbound = new InboundFraming(options.frameBytesMax());
        OutboundFraming outbound = new OutboundFraming();
        channel.pipeline()
                // Responses finished close together leave in one flush (one syscall) instead of one each.
                .addLast("flushConsolidation", new io.netty.handler.flush.FlushConsolidationHandler(256, true))
                .addLast("inboundFraming", inbound)
                .addLast("outboundFraming", outbound)
                .addLast("connection", new Connection(options, handler, events, inbound, outbound));
    }
}

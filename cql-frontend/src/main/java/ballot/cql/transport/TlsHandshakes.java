package ballot.cql.transport;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits behind a client connection's TLS handler and logs failed handshakes (a plaintext client on a TLS-only port, an
 * untrusted or missing client certificate), at most once per 10 s. The TLS handler has already closed such a
 * connection; this one leaves the pipeline once a handshake succeeds.
 */
@ChannelHandler.Sharable
final class TlsHandshakes extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(TlsHandshakes.class);

    private final RepeatedWarning failures = new RepeatedWarning();

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent handshake) {
            if (handshake.isSuccess()) {
                ctx.pipeline().remove(this);
            } else {
                long count = failures.occurred();
                if (count > 0) log.warn("refused a client connection from {}: TLS handshake failed: {}; {} refused so far",
                        ctx.channel().remoteAddress(), handshake.cause().toString(), count);
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(event);
    }
}

package ballot.net;

import io.netty.channel.Channel;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * TLS on internode connections (server_encryption_options, docs/tls.md): {@code inbound} for the connections peers
 * open to this node, {@code outbound} for those it opens. When set, it is first in every internode pipeline, so no
 * frame is read or written in plaintext: a peer that does not speak TLS, or whose certificate the truststore does not
 * vouch for, fails the handshake and its connection is closed.
 */
public record InternodeTls(SslContext inbound, SslContext outbound) {
    public InternodeTls {
        Objects.requireNonNull(inbound, "inbound");
        Objects.requireNonNull(outbound, "outbound");
        if (!inbound.isServer() || !outbound.isClient())
            throw new IllegalArgumentException("inbound must be a server context and outbound a client context");
    }

    SslHandler inboundHandler(Channel channel, Duration handshakeTimeout) {
        SslHandler handler = inbound.newHandler(channel.alloc());
        handler.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
        return handler;
    }

    SslHandler outboundHandler(Channel channel, InetSocketAddress peer, Duration handshakeTimeout) {
        SslHandler handler = outbound.newHandler(channel.alloc(), peer.getHostString(), peer.getPort());
        handler.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
        return handler;
    }

    /** What a failed TLS handshake means to an operator; null when {@code cause} is no TLS failure. */
    static String explain(Throwable cause) {
        Throwable tls = cause instanceof SSLException ? cause : cause.getCause() instanceof SSLException ssl ? ssl : null;
        if (tls instanceof NotSslRecordException)
            return "the peer does not speak TLS; server_encryption_options.internode_encryption must be the same on every node";
        if (tls != null)
            return "TLS handshake failed (server_encryption_options: is the peer's certificate signed by a CA in the truststore?): " + tls.getMessage();
        return null;
    }
}

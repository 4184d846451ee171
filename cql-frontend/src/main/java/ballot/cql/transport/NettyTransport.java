package ballot.cql.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * The socket machinery of the node's servers and connections (client and internode): Linux's epoll through Netty's
 * native transport where it loads, Java NIO elsewhere. Epoll costs fewer system calls and less garbage per message,
 * which matters when a small request (an LWT round) is mostly system calls. An event loop group only serves channels
 * of its own transport, so a group and its channels always come from the same constant.
 */
public enum NettyTransport {
    EPOLL(EpollIoHandler::newFactory, EpollServerSocketChannel.class, EpollSocketChannel.class),
    NIO(NioIoHandler::newFactory, NioServerSocketChannel.class, NioSocketChannel.class);

    private final Supplier<IoHandlerFactory> ioHandlers;
    private final Class<? extends ServerChannel> serverChannel;
    private final Class<? extends SocketChannel> socketChannel;

    NettyTransport(Supplier<IoHandlerFactory> ioHandlers, Class<? extends ServerChannel> serverChannel,
            Class<? extends SocketChannel> socketChannel) {
        this.ioHandlers = ioHandlers;
        this.serverChannel = serverChannel;
        this.socketChannel = socketChannel;
    }

    /** The property that forces NIO ({@code -Dballot.netty.transport=nio}), to compare the two or to work around epoll. */
    public static final String PROPERTY = "ballot.netty.transport";

    /** Epoll where its native library loads on this platform, unless {@link #PROPERTY} says nio; NIO otherwise. */
    public static NettyTransport preferred() {
        if ("nio".equalsIgnoreCase(System.getProperty(PROPERTY, ""))) return NIO;
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** @param threads 0 for Netty's default (twice the processors) */
    public EventLoopGroup group(int threads, ThreadFactory threadFactory) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, ioHandlers.get());
    }

    public Class<? extends ServerChannel> serverChannel() {
        return serverChannel;
    }

    public Class<? extends SocketChannel> socketChannel() {
        return socketChannel;
    }
}

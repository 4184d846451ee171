package ballot.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NettyTransportTest {
    @Test
    void epollLoadsOnLinuxOnTheArchitecturesWhoseNativeLibraryShips() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        assumeTrue(os.contains("linux") && (arch.equals("amd64") || arch.equals("aarch64")), "epoll ships for Linux x86_64 and aarch64 only");
        assertThat(NettyTransport.preferred()).as("the native epoll library is on the class path and loads").isEqualTo(NettyTransport.EPOLL);
    }

    @Test
    void thePropertyForcesNio() {
        String before = System.getProperty(NettyTransport.PROPERTY);
        System.setProperty(NettyTransport.PROPERTY, "nio");
        try {
            assertThat(NettyTransport.preferred()).isEqualTo(NettyTransport.NIO);
        } finally {
            if (before == null) System.clearProperty(NettyTransport.PROPERTY);
            else System.setProperty(NettyTransport.PROPERTY, before);
        }
    }

    @Test
    void eachTransportsGroupServesItsOwnChannels() throws Exception {
        for (NettyTransport transport : NettyTransport.values()) {
            if (transport == NettyTransport.EPOLL && NettyTransport.preferred() != NettyTransport.EPOLL) continue;
            EventLoopGroup group = transport.group(1, new DefaultThreadFactory("transport-test"));
            try {
                var channel = transport.socketChannel().getDeclaredConstructor().newInstance();
                assertThat(group.register(channel).await().isSuccess()).as("%s registers its own socket channel", transport).isTrue();
                channel.close().await();
            } finally {
                group.shutdownGracefully(0, 0, TimeUnit.SECONDS).await();
            }
        }
    }
}

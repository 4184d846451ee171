package ballot.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Frames a client begins and does not finish (issue 11): a connection that holds an incomplete frame and completes
 * none for the assembly timeout is closed, and so is one whose incomplete frames take the server past its budget.
 * Before, such connections were kept for ever, and clients that each sent most of a 16 MiB frame used up the direct
 * memory.
 */
class PartialFramesIT {
    private static final int OPTIONS = 0x05, SUPPORTED = 0x06;

    @Test
    void aConnectionStalledMidFrameIsClosedAfterTheAssemblyTimeoutAndAnIdleOneIsNot() throws Exception {
        try (Server server = new Server(1 << 20, Duration.ofMillis(300));
             Socket stalled = server.connect(); Socket idle = server.connect()) {
            assertThat(options(idle)).isEqualTo(SUPPORTED);
            DataOutputStream out = new DataOutputStream(stalled.getOutputStream());
            header(out, 100);
            out.write(new byte[50]);
            out.flush();

            assertClosed(stalled, "the stalled connection");
            Thread.sleep(600);
            assertThat(options(idle)).as("a connection holding no incomplete frame stays open").isEqualTo(SUPPORTED);
        }
    }

    @Test
    void theConnectionWhoseIncompleteFrameTakesTheServerPastItsBudgetIsClosed() throws Exception {
        try (Server server = new Server(64 << 10, Duration.ofSeconds(30));
             Socket first = server.connect(); Socket second = server.connect()) {
            DataOutputStream firstOut = new DataOutputStream(first.getOutputStream());
            header(firstOut, 100 << 10);
            firstOut.write(new byte[40 << 10]);
            firstOut.flush();
            Thread.sleep(200); // the server has counted the first connection's bytes
            DataOutputStream secondOut = new DataOutputStream(second.getOutputStream());
            header(secondOut, 100 << 10);
            secondOut.write(new byte[40 << 10]);
            secondOut.flush();

            assertClosed(second, "the second connection");
            firstOut.write(new byte[60 << 10]);
            firstOut.flush();
            assertThat(readOpcode(first)).as("the first connection finishes its frame and is answered").isEqualTo(SUPPORTED);
        }
    }

    /**
     * The server closed the socket: the client reads the end of the stream or, where the server closed with bytes of
     * ours still unread (epoll reads in other sizes than NIO), a reset. Either is a closed connection to a driver.
     */
    private static void assertClosed(Socket socket, String what) throws IOException {
        int read;
        try {
            read = socket.getInputStream().read();
        } catch (SocketException e) {
            assertThat(e.getMessage()).as("%s is reset, not failing otherwise", what).contains("reset");
            return;
        }
        assertThat(read).as("%s is closed", what).isEqualTo(-1);
    }

    /** Sends OPTIONS; returns the answer's opcode. */
    private static int options(Socket socket) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        header(out, 0);
        out.flush();
        return readOpcode(socket);
    }

    /** A v4 OPTIONS header on stream 1 announcing a body of {@code bodyBytes}. */
    private static void header(DataOutputStream out, int bodyBytes) throws IOException {
        out.writeByte(0x04);
        out.writeByte(0);
        out.writeShort(1);
        out.writeByte(OPTIONS);
        out.writeInt(bodyBytes);
    }

    private static int readOpcode(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        in.readUnsignedByte();
        in.readUnsignedByte();
        in.readShort();
        int opcode = in.readUnsignedByte();
        in.readFully(new byte[in.readInt()]);
        return opcode;
    }

    private static final class Server implements AutoCloseable {
        private final CqlServer server;
        private final InetSocketAddress address;

        Server(long partialFrameBytesMax, Duration assemblyTimeout) {
            server = new CqlServer(CqlServerOptions.builder().port(0).partialFrames(partialFrameBytesMax, assemblyTimeout).build(),
                    (request, client) -> CompletableFuture.failedFuture(new IllegalStateException("no statements here")));
            address = server.start();
        }

        Socket connect() throws IOException {
            Socket socket = new Socket();
            socket.connect(address, 5_000);
            socket.setSoTimeout(10_000);
            return socket;
        }

        @Override
        public void close() {
            server.stop();
        }
    }
}

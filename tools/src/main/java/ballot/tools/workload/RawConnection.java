package ballot.tools.workload;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One native protocol v4 connection that sends EXECUTE frames of statements prepared beforehand and hears only how
 * each ended (a result, or an error's code): the overload benchmark's light client ({@code overload --client raw}), so
 * that on a machine it shares with the node, the client's own CPU per request is a few microseconds, not the driver's
 * tens. Frames are written by one thread ({@link #execute} is not thread-safe; {@link #flush} sends what is buffered)
 * and read by the connection's reader thread, which calls the {@link Answers} with the stream of each answer.
 */
final class RawConnection implements AutoCloseable {
    static final int STREAMS = 32_768;
    static final short ONE = 0x0001;
    static final short QUORUM = 0x0004;
    static final short SERIAL = 0x0008;
    private static final byte VERSION = 0x04;
    private static final byte RESPONSE = (byte) 0x84;
    private static final int OPCODE_ERROR = 0x00;
    private static final int OPCODE_STARTUP = 0x01;
    private static final int OPCODE_READY = 0x02;
    private static final int OPCODE_EXECUTE = 0x0A;
    private static final int FLAG_VALUES = 0x01;
    private static final int FLAG_SKIP_METADATA = 0x02;
    private static final int FLAG_SERIAL_CONSISTENCY = 0x10;

    /** Hears each answer of one connection on its reader thread: {@code errorCode} 0 for a result. */
    interface Answers {
        void answered(int stream, int errorCode);

        /** The connection failed or was closed; answers of streams still out will not come. */
        void lost(IOException cause);
    }

    private final Socket socket;
    private Answers answers; // set before the reader starts
    private final OutputStream out;
    private final DataInputStream in;
    private final Thread reader;
    private volatile boolean closing;

    private RawConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        reader = new Thread(this::readAnswers, "raw-cql-" + address);
        reader.setDaemon(true);
    }

    /** Connects, sends STARTUP and waits for READY; then answers go to {@code answers}. */
    static RawConnection open(InetSocketAddress address, Answers answers) throws IOException {
        RawConnection c = new RawConnection(address);
        try {
            ByteBuffer body = ByteBuffer.allocate(64);
            body.putShort((short) 1);
            putString(body, "CQL_VERSION");
            putString(body, "3.0.0");
            c.writeFrame(0, OPCODE_STARTUP, body.flip());
            c.out.flush();
            c.in.readFully(new byte[4]); // version, flags, stream
            int opcode = c.in.readUnsignedByte();
            byte[] rest = new byte[c.in.readInt()];
            c.in.readFully(rest);
            if (opcode != OPCODE_READY) throw new IOException(address + " answered STARTUP with opcode " + opcode + ", not READY");
        } catch (IOException e) {
            c.socket.close();
            throw e;
        }
        c.answers = answers;
        c.reader.start();
        return c;
    }

    /** Buffers an EXECUTE of {@code statementId} with {@code values} on {@code stream}; {@code serial} 0 for none. */
    void execute(int stream, byte[] statementId, ByteBuffer[] values, short consistency, short serial) throws IOException {
        int length = 2 + statementId.length + 2 + 1 + 2 + (serial != 0 ? 2 : 0);
        for (ByteBuffer v : values) length += 4 + v.remaining();
        ByteBuffer body = ByteBuffer.allocate(length);
        body.putShort((short) statementId.length).put(statementId);
        body.putShort(consistency);
        body.put((byte) (FLAG_VALUES | FLAG_SKIP_METADATA | (serial != 0 ? FLAG_SERIAL_CONSISTENCY : 0)));
        body.putShort((short) values.length);
        for (ByteBuffer v : values) body.putInt(v.remaining()).put(v.duplicate());
        if (serial != 0) body.putShort(serial);
        writeFrame(stream, OPCODE_EXECUTE, body.flip());
    }

    void flush() throws IOException {
        out.flush();
    }

    private void writeFrame(int stream, int opcode, ByteBuffer body) throws IOException {
        out.write(VERSION);
        out.write(0);
        out.write(stream >>> 8);
        out.write(stream);
        out.write(opcode);
        int length = body.remaining();
        out.write(length >>> 24);
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(body.array(), body.arrayOffset() + body.position(), length);
    }

    private void readAnswers() {
        try {
            while (true) {
                int version = in.readUnsignedByte();
                if ((byte) version != RESPONSE) throw new IOException("a frame of version byte " + version + ", not a v4 response");
                in.readUnsignedByte(); // flags: none asked for
                int stream = in.readUnsignedShort();
                int opcode = in.readUnsignedByte();
                int length = in.readInt();
                int errorCode = 0;
                if (opcode == OPCODE_ERROR) {
                    errorCode = in.readInt();
                    length -= 4;
                }
                in.skipNBytes(length);
                answers.answered(stream, errorCode);
            }
        } catch (IOException e) {
            answers.lost(closing ? new EOFException("closed") : e);
        }
    }

    private static void putString(ByteBuffer body, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        body.putShort((short) bytes.length).put(bytes);
    }

    @Override
    public void close() throws IOException {
        closing = true;
        socket.close();
    }
}

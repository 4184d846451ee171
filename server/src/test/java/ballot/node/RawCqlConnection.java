package ballot.node;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A native-protocol v4 client written out by hand from native_protocol_v4.spec, with none of Ballot's codecs, so that
 * a test sees the node's bytes as a driver does. Uncompressed frames, one request at a time, on stream 1; [string]s
 * are read and written as Java's modified UTF-8, which is the same for the ASCII the tests use.
 */
final class RawCqlConnection implements AutoCloseable {
    private static final int READY = 0x02, SUPPORTED = 0x06, RESULT = 0x08;
    private static final int ERROR = 0x00, STARTUP = 0x01, OPTIONS = 0x05, QUERY = 0x07, PREPARE = 0x09, EXECUTE = 0x0A;
    private static final int FLAG_TRACING = 0x02;
    private static final short ONE = 0x0001;
    private static final short QUORUM = 0x0004;

    /** A response with its header flags, exactly as it came. */
    record Response(int flags, int opcode, byte[] body) {}

    /** A response: its opcode and body. */
    record Frame(int opcode, byte[] body) {
        DataInputStream reader() {
            return new DataInputStream(new ByteArrayInputStream(body));
        }
    }

    /** The head of a RESULT Prepared body (spec §4.2.5.4). */
    record Prepared(byte[] id, int metadataFlags) {
        boolean lwt() {
            return (metadataFlags & 0x8000_0000) != 0;
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    private RawCqlConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = new DataOutputStream(socket.getOutputStream());
    }

    static RawCqlConnection open(InetSocketAddress address) {
        try {
            Socket socket = new Socket();
            socket.connect(address, 5_000);
            socket.setSoTimeout(20_000);
            return new RawCqlConnection(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** OPTIONS, answered by SUPPORTED: a [string multimap]. */
    Map<String, List<String>> options() throws IOException {
        DataInputStream body = expect(request(OPTIONS, new byte[0]), SUPPORTED).reader();
        Map<String, List<String>> options = new LinkedHashMap<>();
        for (int n = body.readUnsignedShort(); n > 0; n--) {
            String key = body.readUTF();
            List<String> values = new ArrayList<>();
            for (int m = body.readUnsignedShort(); m > 0; m--) values.add(body.readUTF());
            options.put(key, values);
        }
        return options;
    }

    /** STARTUP with a [string map], answered by READY. */
    RawCqlConnection startup(Map<String, String> options) throws IOException {
        Body body = new Body();
        body.out.writeShort(options.size());
        for (Map.Entry<String, String> e : options.entrySet()) {
            body.out.writeUTF(e.getKey());
            body.out.writeUTF(e.getValue());
        }
        expect(request(STARTUP, body.bytes()), READY);
        return this;
    }

    Prepared prepare(String query) throws IOException {
        Body body = new Body();
        body.longString(query);
        DataInputStream result = expect(request(PREPARE, body.bytes()), RESULT).reader();
        if (result.readInt() != 0x0004) throw new AssertionError("PREPARE answered by a RESULT that is not Prepared");
        byte[] id = new byte[result.readUnsignedShort()];
        result.readFully(id);
        return new Prepared(id, result.readInt());
    }

    /** The whole RESULT body of PREPARE, to compare bytes between connections. */
    byte[] prepareBody(String query) throws IOException {
        Body body = new Body();
        body.longString(query);
        return expect(request(PREPARE, body.bytes()), RESULT).body();
    }

    /** EXECUTE at QUORUM with int values; the RESULT. */
    Frame execute(byte[] id, int... values) throws IOException {
        return expect(executeAnswer(id, false, values), RESULT);
    }

    /** EXECUTE at QUORUM with int values, asking to skip the result metadata if {@code skipMetadata}; any answer. */
    Frame executeAnswer(byte[] id, boolean skipMetadata, int... values) throws IOException {
        Body body = new Body();
        body.out.writeShort(id.length);
        body.out.write(id);
        body.out.writeShort(QUORUM);
        body.out.writeByte(0x01 | (skipMetadata ? 0x02 : 0)); // flags: values, skip_metadata
        body.out.writeShort(values.length);
        for (int v : values) {
            body.out.writeInt(4);
            body.out.writeInt(v);
        }
        return request(EXECUTE, body.bytes());
    }

    /** QUERY at QUORUM without values (a DDL or USE); the RESULT. */
    Frame query(String cql) throws IOException {
        Body body = new Body();
        body.longString(cql);
        body.out.writeShort(QUORUM);
        body.out.writeByte(0x00);
        return expect(request(QUERY, body.bytes()), RESULT);
    }

    /** The head of a RESULT Rows (spec §4.2.5.2): its metadata flags and column count. */
    record RowsHead(int flags, int columnCount) {
        boolean noMetadata() {
            return (flags & 0x0004) != 0;
        }
    }

    static RowsHead rowsHead(Frame result) throws IOException {
        DataInputStream rows = expect(result, RESULT).reader();
        if (rows.readInt() != 0x0002) throw new AssertionError("RESULT is not Rows");
        return new RowsHead(rows.readInt(), rows.readInt());
    }

    /** An ERROR (spec §9): its code, message, and for UNPREPARED (0x2500) the unknown statement id. */
    record Error(int code, String message, byte[] unpreparedId) {}

    static Error error(Frame frame) throws IOException {
        if (frame.opcode() != ERROR) throw new AssertionError("expected an ERROR, got opcode 0x" + Integer.toHexString(frame.opcode()));
        DataInputStream body = frame.reader();
        int code = body.readInt();
        String message = body.readUTF();
        byte[] id = null;
        if (code == 0x2500) {
            id = new byte[body.readUnsignedShort()];
            body.readFully(id);
        }
        return new Error(code, message, id);
    }

    /**
     * The {@code [applied]} value of a conditional statement's RESULT Rows (spec §4.2.5.2), whose columns must all be
     * of native types without type options.
     */
    static boolean applied(Frame result) throws IOException {
        DataInputStream rows = result.reader();
        if (rows.readInt() != 0x0002) throw new AssertionError("RESULT is not Rows");
        int flags = rows.readInt();
        int columns = rows.readInt();
        boolean globalTableSpec = (flags & 0x0001) != 0;
        if (globalTableSpec) {
            rows.readUTF();
            rows.readUTF();
        }
        List<String> names = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            if (!globalTableSpec) {
                rows.readUTF();
                rows.readUTF();
            }
            names.add(rows.readUTF());
            int type = rows.readUnsignedShort();
            if (type == 0x0000 || type >= 0x0020) throw new AssertionError("column type 0x" + Integer.toHexString(type) + " has options");
        }
        if (!names.get(0).equals("[applied]") || rows.readInt() != 1) throw new AssertionError("not one row of a conditional statement");
        if (rows.readInt() != 1) throw new AssertionError("[applied] is not one byte");
        return rows.readBoolean();
    }

    /** QUERY at ONE with no parameters, the request's header flags set to {@code flags}; the response as it came. */
    Response query(String query, int flags) throws IOException {
        Body body = new Body();
        body.longString(query);
        body.out.writeShort(ONE);
        body.out.writeByte(0x00); // query flags: none
        return send(flags, QUERY, body.bytes());
    }

    /** A QUERY with the tracing flag (spec §2.2). */
    Response tracedQuery(String query) throws IOException {
        return query(query, FLAG_TRACING);
    }

    private Frame request(int opcode, byte[] body) throws IOException {
        Response response = send(0x00, opcode, body);
        if (response.flags() != 0) throw new AssertionError("unexpected response flags 0x" + Integer.toHexString(response.flags()));
        return new Frame(response.opcode(), response.body());
    }

    /** Sends an unpaged QUERY at ONE on {@code stream} without waiting for its answer (see {@link #receive}). */
    void sendQuery(int stream, String query) throws IOException {
        Body body = new Body();
        body.longString(query);
        body.out.writeShort(ONE);
        body.out.writeByte(0x00);
        write(0x00, stream, QUERY, body.bytes());
    }

    /** Sends a QUERY at ONE on {@code stream} with a custom payload of UTF-8 values (flag 0x04), without waiting. */
    void sendQuery(int stream, String query, Map<String, String> payload) throws IOException {
        Body body = new Body();
        body.out.writeShort(payload.size());
        for (Map.Entry<String, String> e : payload.entrySet()) {
            byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
            body.out.writeShort(key.length);
            body.out.write(key);
            body.out.writeInt(value.length);
            body.out.write(value);
        }
        body.longString(query);
        body.out.writeShort(ONE);
        body.out.writeByte(0x00);
        write(0x04, stream, QUERY, body.bytes());
    }

    /** Sends an EXECUTE at ONE of a statement without markers on {@code stream}, without waiting (see {@link #receive}). */
    void sendExecute(int stream, byte[] id) throws IOException {
        Body body = new Body();
        body.out.writeShort(id.length);
        body.out.write(id);
        body.out.writeShort(ONE);
        body.out.writeByte(0x00);
        write(0x00, stream, EXECUTE, body.bytes());
    }

    /** The next response, on whichever stream. */
    Frame receive() throws IOException {
        Response response = read();
        return new Frame(response.opcode(), response.body());
    }

    private Response send(int flags, int opcode, byte[] body) throws IOException {
        write(flags, 1, opcode, body);
        return read();
    }

    private void write(int flags, int stream, int opcode, byte[] body) throws IOException {
        out.writeByte(0x04);
        out.writeByte(flags);
        out.writeShort(stream);
        out.writeByte(opcode);
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    private Response read() throws IOException {
        int version = in.readUnsignedByte();
        if (version != 0x84) throw new AssertionError("response version byte 0x" + Integer.toHexString(version));
        int responseFlags = in.readUnsignedByte();
        in.readShort();
        int responseOpcode = in.readUnsignedByte();
        byte[] responseBody = new byte[in.readInt()];
        in.readFully(responseBody);
        return new Response(responseFlags, responseOpcode, responseBody);
    }

    private static Frame expect(Frame frame, int opcode) throws IOException {
        if (frame.opcode() == ERROR) {
            DataInputStream error = frame.reader();
            int code = error.readInt();
            throw new AssertionError("ERROR 0x" + Integer.toHexString(code) + ": " + error.readUTF());
        }
        if (frame.opcode() != opcode)
            throw new AssertionError("expected opcode 0x" + Integer.toHexString(opcode) + ", got 0x" + Integer.toHexString(frame.opcode()));
        return frame;
    }

    /** A request body being written. */
    private static final class Body {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);

        void longString(String s) throws IOException {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(utf8.length);
            out.write(utf8);
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

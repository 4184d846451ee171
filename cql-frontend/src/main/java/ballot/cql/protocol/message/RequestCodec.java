package ballot.cql.protocol.message;

import static ballot.cql.protocol.Primitives.readConsistency;
import static ballot.cql.protocol.Primitives.readInt;
import static ballot.cql.protocol.Primitives.readLong;
import static ballot.cql.protocol.Primitives.readLongString;
import static ballot.cql.protocol.Primitives.readShortBytes;
import static ballot.cql.protocol.Primitives.readString;
import static ballot.cql.protocol.Primitives.readUnsignedByte;
import static ballot.cql.protocol.Primitives.readUnsignedShort;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.Primitives;
import ballot.cql.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Request bodies (native_protocol_v5.spec §4.1): decoded by the server, encoded by clients and tests. Decoding never
 * fails with anything but {@link ProtocolException}, whose message names the field that was bad.
 */
public final class RequestCodec {
    // <query_parameters> flags (§4.1.4); [byte] before v5, [int] from v5 on.
    static final int VALUES = 0x01;
    static final int SKIP_METADATA = 0x02;
    static final int PAGE_SIZE = 0x04;
    static final int PAGING_STATE = 0x08;
    static final int SERIAL_CONSISTENCY = 0x10;
    static final int DEFAULT_TIMESTAMP = 0x20;
    static final int NAMES_FOR_VALUES = 0x40;
    static final int KEYSPACE = 0x80;
    static final int NOW_IN_SECONDS = 0x100;
    // PREPARE flags (v5)
    private static final int PREPARE_KEYSPACE = 0x01;

    private RequestCodec() {}

    /** Decodes {@code envelope}'s body; the envelope is not released. Its body must already be decompressed. */
    public static Request decode(Envelope envelope) {
        ByteBuf body = envelope.body().duplicate();
        ProtocolVersion version = envelope.version();
        if (envelope.hasFlag(Envelope.FLAG_CUSTOM_PAYLOAD)) {
            if (!version.isAtLeast(ProtocolVersion.V4))
                throw new ProtocolException("Received frame with CUSTOM_PAYLOAD flag for native protocol version < 4");
            Primitives.skipBytesMap(body, "custom payload");
        }
        switch (envelope.opcode()) {
            case STARTUP: return decodeStartup(body);
            case OPTIONS: return new Options();
            case QUERY: return new Query(readLongString(body, "QUERY string"), decodeQueryOptions(body, version));
            case PREPARE: return decodePrepare(body, version);
            case EXECUTE: return decodeExecute(body, version);
            case BATCH: return decodeBatch(body, version);
            case REGISTER: return decodeRegister(body);
            case AUTH_RESPONSE: return new AuthResponse(Primitives.readBytes(body, "AUTH_RESPONSE token"));
            default: throw new ProtocolException("Opcode " + envelope.opcode() + " is not a request");
        }
    }

    /**
     * The custom payload a request carries (protocol v4+, flag 0x04), or an empty map. {@link #decode} checked it is
     * well formed and skipped it.
     */
    public static Map<String, ByteBuffer> customPayload(Envelope envelope) {
        if (!envelope.hasFlag(Envelope.FLAG_CUSTOM_PAYLOAD)) return Map.of();
        return Primitives.readBytesMap(envelope.body().duplicate(), "custom payload");
    }

    private static Startup decodeStartup(ByteBuf body) {
        Map<String, String> options = new LinkedHashMap<>();
        Primitives.readStringMap(body, "STARTUP options").forEach((k, v) -> options.put(k.toUpperCase(Locale.ROOT), v));
        return new Startup(options);
    }

    private static Prepare decodePrepare(ByteBuf body, ProtocolVersion version) {
        String query = readLongString(body, "PREPARE string");
        String keyspace = null;
        if (version.isAtLeast(ProtocolVersion.V5)) {
            int flags = readInt(body, "PREPARE flags");
            if ((flags & PREPARE_KEYSPACE) != 0) keyspace = readString(body, "PREPARE keyspace");
        }
        return new Prepare(query, keyspace);
    }

    private static Execute decodeExecute(ByteBuf body, ProtocolVersion version) {
        ByteBuffer id = readShortBytes(body, "EXECUTE statement id");
        ByteBuffer resultMetadataId = version.isAtLeast(ProtocolVersion.V5)
                ? readShortBytes(body, "EXECUTE result metadata id") : null;
        return new Execute(id, resultMetadataId, decodeQueryOptions(body, version));
    }

    static QueryOptions decodeQueryOptions(ByteBuf body, ProtocolVersion version) {
        ConsistencyLevel consistency = readConsistency(body, "consistency");
        int flags = readFlags(body, version, "query flags");
        List<ByteBuffer> values = new ArrayList<>();
        List<String> names = null;
        if ((flags & VALUES) != 0) {
            int count = readUnsignedShort(body, "value count");
            if ((flags & NAMES_FOR_VALUES) != 0) names = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                if (names != null) names.add(readString(body, "name of value " + i));
                values.add(readValue(body, version, i));
            }
        }
        int pageSize = (flags & PAGE_SIZE) != 0 ? readInt(body, "page size") : -1;
        if (pageSize == 0) throw new ProtocolException("The page size cannot be 0"); // a negative one asks for no paging
        ByteBuffer pagingState = (flags & PAGING_STATE) != 0 ? Primitives.readBytes(body, "paging state") : null;
        ConsistencyLevel serial = (flags & SERIAL_CONSISTENCY) != 0 ? readSerial(body) : null;
        Long timestamp = (flags & DEFAULT_TIMESTAMP) != 0 ? readTimestamp(body) : null;
        String keyspace = (flags & KEYSPACE) != 0 ? readString(body, "keyspace") : null;
        Integer now = (flags & NOW_IN_SECONDS) != 0 ? readInt(body, "now in seconds") : null;
        return new QueryOptions(consistency, values, names, (flags & SKIP_METADATA) != 0, pageSize, pagingState,
                serial, timestamp, keyspace, now);
    }

    private static Batch decodeBatch(ByteBuf body, ProtocolVersion version) {
        int typeCode = readUnsignedByte(body, "BATCH type");
        if (typeCode >= BatchType.values().length) throw new ProtocolException("Invalid BATCH type " + typeCode);
        int count = readUnsignedShort(body, "BATCH statement count");
        List<Batch.Child> children = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int kind = readUnsignedByte(body, "kind of BATCH statement " + i);
            String query = null;
            ByteBuffer id = null;
            if (kind == 0) query = readLongString(body, "BATCH statement " + i);
            else if (kind == 1) id = readShortBytes(body, "prepared id of BATCH statement " + i);
            else throw new ProtocolException("Invalid kind " + kind + " of BATCH statement " + i + "; expected 0 or 1");
            int valueCount = readUnsignedShort(body, "value count of BATCH statement " + i);
            List<ByteBuffer> values = new ArrayList<>(valueCount);
            for (int v = 0; v < valueCount; v++) values.add(readValue(body, version, v));
            children.add(query != null ? new Batch.QueryChild(query, values) : new Batch.PreparedChild(id, values));
        }
        ConsistencyLevel consistency = readConsistency(body, "BATCH consistency");
        int flags = readFlags(body, version, "BATCH flags");
        if ((flags & NAMES_FOR_VALUES) != 0)
            throw new ProtocolException("Named values are not supported in BATCH (CASSANDRA-10246)");
        ConsistencyLevel serial = (flags & SERIAL_CONSISTENCY) != 0 ? readSerial(body) : null;
        Long timestamp = (flags & DEFAULT_TIMESTAMP) != 0 ? readTimestamp(body) : null;
        String keyspace = (flags & KEYSPACE) != 0 ? readString(body, "BATCH keyspace") : null;
        Integer now = (flags & NOW_IN_SECONDS) != 0 ? readInt(body, "BATCH now in seconds") : null;
        return new Batch(BatchType.values()[typeCode], children, consistency, serial, timestamp, keyspace, now);
    }

    private static Register decodeRegister(ByteBuf body) {
        Set<EventType> types = EnumSet.noneOf(EventType.class);
        for (String name : Primitives.readStringList(body, "REGISTER event types")) {
            try {
                types.add(EventType.valueOf(name));
            } catch (IllegalArgumentException e) {
                throw new ProtocolException("Invalid event type '" + name + "' in REGISTER; expected one of "
                        + List.of(EventType.values()));
            }
        }
        return new Register(types);
    }

    private static int readFlags(ByteBuf body, ProtocolVersion version, String what) {
        if (version.isAtLeast(ProtocolVersion.V5)) return readInt(body, what);
        int flags = readUnsignedByte(body, what);
        if ((flags & KEYSPACE) != 0)
            throw new ProtocolException("The keyspace flag 0x80 in " + what + " requires protocol v5, this connection uses v"
                    + version.code());
        return flags;
    }

    private static ByteBuffer readValue(ByteBuf body, ProtocolVersion version, int index) {
        // Checked by hand rather than through readInt/require: their message argument would be built for every value.
        if (body.readableBytes() < 4) throw new ProtocolException("Not enough bytes to read the length of value " + index);
        int length = body.readInt();
        if (length >= 0) {
            if (body.readableBytes() < length) {
                throw new ProtocolException("Not enough bytes to read value " + index + ": " + length + " announced, "
                        + body.readableBytes() + " left");
            }
            byte[] bytes = new byte[length];
            body.readBytes(bytes);
            return ByteBuffer.wrap(bytes);
        }
        if (length == -1) return null;
        if (length == -2 && version.isAtLeast(ProtocolVersion.V4)) return QueryOptions.UNSET;
        throw new ProtocolException("Invalid length " + length + " for value " + index + " in protocol v" + version.code());
    }

    private static ConsistencyLevel readSerial(ByteBuf body) {
        ConsistencyLevel serial = readConsistency(body, "serial consistency");
        if (!serial.isSerial())
            throw new ProtocolException("Serial consistency must be SERIAL or LOCAL_SERIAL, got " + serial);
        return serial;
    }

    private static long readTimestamp(ByteBuf body) {
        long timestamp = readLong(body, "default timestamp");
        if (timestamp == Long.MIN_VALUE)
            throw new ProtocolException("Out of bound timestamp, must be in [" + (Long.MIN_VALUE + 1) + ", "
                    + Long.MAX_VALUE + "] (got " + timestamp + ")");
        return timestamp;
    }

    /** Encodes {@code request} as a client would send it. */
    public static Envelope encode(Request request, int streamId, ProtocolVersion version, ByteBufAllocator alloc) {
        ByteBuf body = alloc.buffer();
        try {
            Opcode opcode = encodeBody(request, version, body);
            return new Envelope(version, 0, streamId, opcode, body);
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
    }

    private static Opcode encodeBody(Request request, ProtocolVersion version, ByteBuf out) {
        if (request instanceof Startup s) {
            Primitives.writeStringMap(s.options(), out);
            return Opcode.STARTUP;
        }
        if (request instanceof Options) return Opcode.OPTIONS;
        if (request instanceof Query q) {
            Primitives.writeLongString(q.query(), out);
            encodeQueryOptions(q.options(), version, out);
            return Opcode.QUERY;
        }
        if (request instanceof Prepare p) {
            Primitives.writeLongString(p.query(), out);
            if (version.isAtLeast(ProtocolVersion.V5)) {
                out.writeInt(p.keyspace() != null ? PREPARE_KEYSPACE : 0);
                if (p.keyspace() != null) Primitives.writeString(p.keyspace(), out);
            }
            return Opcode.PREPARE;
        }
        if (request instanceof Execute e) {
            Primitives.writeShortBytes(e.statementId(), out);
            if (version.isAtLeast(ProtocolVersion.V5)) Primitives.writeShortBytes(e.resultMetadataId(), out);
            encodeQueryOptions(e.options(), version, out);
            return Opcode.EXECUTE;
        }
        if (request instanceof Batch b) {
            encodeBatch(b, version, out);
            return Opcode.BATCH;
        }
        if (request instanceof Register r) {
            List<String> names = new ArrayList<>();
            for (EventType type : r.eventTypes()) names.add(type.name());
            Primitives.writeStringList(names, out);
            return Opcode.REGISTER;
        }
        if (request instanceof AuthResponse a) {
            Primitives.writeBytes(a.token(), out);
            return Opcode.AUTH_RESPONSE;
        }
        throw new IllegalArgumentException("unknown request " + request);
    }

    static void encodeQueryOptions(QueryOptions o, ProtocolVersion version, ByteBuf out) {
        int flags = 0;
        if (!o.values().isEmpty()) flags |= VALUES;
        if (o.valueNames() != null && !o.values().isEmpty()) flags |= NAMES_FOR_VALUES;
        if (o.skipMetadata()) flags |= SKIP_METADATA;
        if (o.isPaged()) flags |= PAGE_SIZE;
        if (o.pagingState() != null) flags |= PAGING_STATE;
        if (o.serialConsistency() != null) flags |= SERIAL_CONSISTENCY;
        if (o.defaultTimestamp() != null) flags |= DEFAULT_TIMESTAMP;
        if (o.keyspace() != null) flags |= KEYSPACE;
        if (o.nowInSeconds() != null) flags |= NOW_IN_SECONDS;
        requireV5((flags & (KEYSPACE | NOW_IN_SECONDS)) != 0, version, "keyspace and now_in_seconds");

        Primitives.writeConsistency(o.consistency(), out);
        writeFlags(flags, version, out);
        if ((flags & VALUES) != 0) {
            out.writeShort(o.values().size());
            for (int i = 0; i < o.values().size(); i++) {
                if ((flags & NAMES_FOR_VALUES) != 0) Primitives.writeString(o.valueNames().get(i), out);
                writeValue(o.values().get(i), out);
            }
        }
        if (o.isPaged()) out.writeInt(o.pageSize());
        if (o.pagingState() != null) Primitives.writeBytes(o.pagingState(), out);
        if (o.serialConsistency() != null) Primitives.writeConsistency(o.serialConsistency(), out);
        if (o.defaultTimestamp() != null) out.writeLong(o.defaultTimestamp());
        if (o.keyspace() != null) Primitives.writeString(o.keyspace(), out);
        if (o.nowInSeconds() != null) out.writeInt(o.nowInSeconds());
    }

    private static void encodeBatch(Batch b, ProtocolVersion version, ByteBuf out) {
        out.writeByte(b.type().code());
        out.writeShort(b.children().size());
        for (Batch.Child child : b.children()) {
            if (child instanceof Batch.QueryChild q) {
                out.writeByte(0);
                Primitives.writeLongString(q.query(), out);
            } else {
                out.writeByte(1);
                Primitives.writeShortBytes(((Batch.PreparedChild) child).statementId(), out);
            }
            out.writeShort(child.values().size());
            for (ByteBuffer value : child.values()) writeValue(value, out);
        }
        Primitives.writeConsistency(b.consistency(), out);
        int flags = 0;
        if (b.serialConsistency() != null) flags |= SERIAL_CONSISTENCY;
        if (b.defaultTimestamp() != null) flags |= DEFAULT_TIMESTAMP;
        if (b.keyspace() != null) flags |= KEYSPACE;
        if (b.nowInSeconds() != null) flags |= NOW_IN_SECONDS;
        requireV5((flags & (KEYSPACE | NOW_IN_SECONDS)) != 0, version, "BATCH keyspace and now_in_seconds");
        writeFlags(flags, version, out);
        if (b.serialConsistency() != null) Primitives.writeConsistency(b.serialConsistency(), out);
        if (b.defaultTimestamp() != null) out.writeLong(b.defaultTimestamp());
        if (b.keyspace() != null) Primitives.writeString(b.keyspace(), out);
        if (b.nowInSeconds() != null) out.writeInt(b.nowInSeconds());
    }

    private static void writeValue(ByteBuffer value, ByteBuf out) {
        if (value == QueryOptions.UNSET) out.writeInt(-2);
        else Primitives.writeBytes(value, out);
    }

    private static void writeFlags(int flags, ProtocolVersion version, ByteBuf out) {
        if (version.isAtLeast(ProtocolVersion.V5)) out.writeInt(flags);
        else out.writeByte(flags);
    }

    private static void requireV5(boolean used, ProtocolVersion version, String what) {
        if (used && !version.isAtLeast(ProtocolVersion.V5))
            throw new IllegalArgumentException(what + " require protocol v5, not v" + version.code());
    }
}

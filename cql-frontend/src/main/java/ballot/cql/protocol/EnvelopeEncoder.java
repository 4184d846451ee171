package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;

/** Writes response envelopes: a 9-byte header then the body (native_protocol_v5.spec §2.4.1). */
public final class EnvelopeEncoder {
    private static final int DIRECTION_RESPONSE = 0x80;

    private EnvelopeEncoder() {}

    public static void writeHeader(Envelope envelope, ByteBuf out) {
        int direction = envelope.opcode().isRequest() ? 0 : DIRECTION_RESPONSE;
        out.writeByte(direction | envelope.version().code());
        out.writeByte(envelope.flags());
        out.writeShort(envelope.streamId());
        out.writeByte(envelope.opcode().code());
        out.writeInt(envelope.body().readableBytes());
    }

    /** Header and body into {@code out}; the envelope's body is left untouched and still owned by the caller. */
    public static void writeTo(Envelope envelope, ByteBuf out) {
        writeHeader(envelope, out);
        ByteBuf body = envelope.body();
        out.writeBytes(body, body.readerIndex(), body.readableBytes());
    }

    /**
     * The 8-byte header of protocol v1/v2 (one-byte stream id), used only to tell such clients that their version
     * is refused, in a header they can read (Cassandra does the same, CASSANDRA-11464).
     */
    public static void writeObsoleteResponseHeader(int versionCode, int streamId, Opcode opcode, int bodyBytes, ByteBuf out) {
        if (!ProtocolVersion.isKnownObsolete(versionCode))
            throw new IllegalArgumentException("version " + versionCode + " does not use the 8-byte header");
        out.writeByte(DIRECTION_RESPONSE | versionCode);
        out.writeByte(0);
        out.writeByte(streamId);
        out.writeByte(opcode.code());
        out.writeInt(bodyBytes);
    }
}

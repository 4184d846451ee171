package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Decodes request envelopes sent back to back without segment framing: protocol v3 and v4 throughout, and v5
 * before the STARTUP exchange completes (native_protocol_v5.spec §2.3.1). Also decodes the envelopes found
 * inside v5 segments, see {@link #decodeOne(ByteBuf)}.
 *
 * <p>Version checks mirror Cassandra 4/5 ({@code Envelope.Decoder}): the version is judged from the first byte
 * alone, before a full header has arrived, because v1/v2 headers are 8 bytes long; an unsupported version is
 * answered on stream 0 since its header layout cannot be trusted.
 */
public final class EnvelopeDecoder implements EnvelopeStreamDecoder {
    private static final int DIRECTION_RESPONSE = 0x80;

    private final int frameBytesMax;
    private final boolean responses;
    private boolean failed;

    /** A server's decoder: accepts requests only. {@code frameBytesMax} is the largest body accepted, in bytes. */
    public EnvelopeDecoder(int frameBytesMax) {
        this(frameBytesMax, false);
    }

    private EnvelopeDecoder(int frameBytesMax, boolean responses) {
        if (frameBytesMax <= 0) throw new IllegalArgumentException("frameBytesMax must be positive, was " + frameBytesMax);
        this.frameBytesMax = frameBytesMax;
        this.responses = responses;
    }

    /** A client's decoder: accepts responses only. */
    public static EnvelopeDecoder forResponses(int frameBytesMax) {
        return new EnvelopeDecoder(frameBytesMax, true);
    }

    @Override
    public void decode(ByteBuf in, List<Object> out) {
        while (!failed && in.isReadable()) {
            Object decoded = decodeOne(in);
            if (decoded == null) break;
            out.add(decoded);
            failed = decoded instanceof ProtocolViolation;
        }
        if (failed) in.skipBytes(in.readableBytes());
    }

    @Override
    public boolean hasFailed() {
        return failed;
    }

    /**
     * Decodes the envelope at the reader index.
     *
     * @return an {@link Envelope} (reader index moved past it; the body is a retained slice of {@code in}), a
     *     {@link ProtocolViolation} (reader index unspecified), or null when more bytes are needed (reader index
     *     unchanged)
     */
    public Object decodeOne(ByteBuf in) {
        int start = in.readerIndex();
        if (!in.isReadable()) return null;
        int versionByte = in.getUnsignedByte(start);
        int versionCode = versionByte & 0x7F;
        ProtocolVersion version = ProtocolVersion.fromCode(versionCode);
        if (version == null) {
            int obsolete = ProtocolVersion.isKnownObsolete(versionCode) ? versionCode : 0;
            return new ProtocolViolation(0, ProtocolVersion.unsupportedMessage(versionCode), obsolete);
        }
        if (in.readableBytes() < Envelope.HEADER_BYTES) return null;

        int flags = in.getUnsignedByte(start + 1);
        int streamId = in.getShort(start + 2);
        int opcodeCode = in.getUnsignedByte(start + 4);
        long bodyBytes = in.getUnsignedInt(start + 5);

        Opcode opcode = Opcode.fromCode(opcodeCode);
        if (opcode == null) return ProtocolViolation.onStream(streamId, "Unknown opcode " + opcodeCode);
        boolean responseBit = (versionByte & DIRECTION_RESPONSE) != 0;
        // The envelope's direction against this side's, then the opcode's own direction against the envelope's.
        boolean expected = responseBit != responses ? responses : !opcode.isRequest();
        if (responseBit != expected)
            return ProtocolViolation.onStream(streamId, "Wrong protocol direction (expected " + direction(expected) + ", got "
                    + direction(responseBit) + ") for opcode " + opcodeCode + " (" + opcode + ")");
        if (!responses && streamId < 0) // answered on 0: drivers read a negative stream as an event
            return ProtocolViolation.onStream(0, "Invalid stream id " + streamId
                    + ": negative stream ids are reserved for events the server sends; requests use 0 to 32767");
        if (bodyBytes > frameBytesMax)
            return ProtocolViolation.onStream(streamId, (responses ? "Response" : "Request") + " is too big: length " + bodyBytes
                    + " exceeds maximum allowed length " + frameBytesMax + " (frameBytesMax)");
        if (in.readableBytes() < Envelope.HEADER_BYTES + bodyBytes) return null;

        in.skipBytes(Envelope.HEADER_BYTES);
        ByteBuf body = in.readRetainedSlice((int) bodyBytes);
        return new Envelope(version, flags, streamId, opcode, body);
    }

    private static String direction(boolean response) {
        return response ? "RESPONSE" : "REQUEST";
    }
}

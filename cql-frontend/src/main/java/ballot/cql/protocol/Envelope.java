package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

/**
 * One CQL message with its 9-byte header (native_protocol_v5.spec §2.4; the "frame" of v4 and earlier). The
 * direction bit of the version byte is implied by the opcode. Whoever holds an envelope owns one reference to
 * {@code body} and must {@link #release()} it; the reference count is the body's, so Netty releases envelopes it
 * fails to write.
 */
public record Envelope(ProtocolVersion version, int flags, int streamId, Opcode opcode, ByteBuf body)
        implements ReferenceCounted {
    public static final int HEADER_BYTES = 9;

    /** v4 and earlier: the body is compressed with the algorithm chosen in STARTUP. Ignored from v5 on. */
    public static final int FLAG_COMPRESSED = 0x01;
    /** Requests: please trace. Responses: the body starts with a tracing id. */
    public static final int FLAG_TRACING = 0x02;
    /** The body starts (after tracing id and warnings) with a [bytes map] custom payload. */
    public static final int FLAG_CUSTOM_PAYLOAD = 0x04;
    /** Responses: the body starts (after any tracing id) with a [string list] of warnings. */
    public static final int FLAG_WARNING = 0x08;
    /** The client opts in to a beta protocol version. */
    public static final int FLAG_USE_BETA = 0x10;

    public Envelope {
        if (streamId < Short.MIN_VALUE || streamId > Short.MAX_VALUE)
            throw new IllegalArgumentException("stream id " + streamId + " is not a [short]");
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    public Envelope withBody(ByteBuf newBody, int newFlags) {
        return new Envelope(version, newFlags, streamId, opcode, newBody);
    }

    @Override
    public int refCnt() {
        return body.refCnt();
    }

    @Override
    public Envelope retain() {
        body.retain();
        return this;
    }

    @Override
    public Envelope retain(int increment) {
        body.retain(increment);
        return this;
    }

    @Override
    public Envelope touch() {
        body.touch();
        return this;
    }

    @Override
    public Envelope touch(Object hint) {
        body.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return body.release();
    }

    @Override
    public boolean release(int decrement) {
        return body.release(decrement);
    }

    @Override
    public String toString() {
        return "Envelope[" + opcode + " v" + version.code() + " stream=" + streamId + " flags=0x"
                + Integer.toHexString(flags) + " bodyBytes=" + body.readableBytes() + "]";
    }
}

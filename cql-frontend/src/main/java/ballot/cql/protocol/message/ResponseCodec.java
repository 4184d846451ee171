package ballot.cql.protocol.message;

import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.Primitives;
import ballot.cql.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.UUID;

/**
 * Response bodies (native_protocol_v5.spec §4.2): encoded by the server, decoded by clients and tests. The answer to a
 * traced request starts with its tracing id, a [uuid], under the Tracing flag (§2.4.1.2, "Flags"); warnings
 * ({@link WithWarnings}) come next, under the Warning flag, as a [string list]; v3 has no warnings and drops them.
 */
public final class ResponseCodec {
    private ResponseCodec() {}

    /** Encodes {@code response} on {@code streamId} (-1 for events) in {@code version}. */
    public static Envelope encode(Response response, int streamId, ProtocolVersion version, ByteBufAllocator alloc) {
        return encode(response, null, streamId, version, alloc);
    }

    /** Encodes the answer to a request traced under {@code tracingId} (none if null). */
    public static Envelope encode(Response response, UUID tracingId, int streamId, ProtocolVersion version, ByteBufAllocator alloc) {
        ByteBuf body = alloc.buffer();
        try {
            int flags = 0;
            if (tracingId != null) {
                flags |= Envelope.FLAG_TRACING;
                Primitives.writeUuid(tracingId, body);
            }
            Response message = response;
            if (response instanceof WithWarnings w) {
                message = w.response();
                if (version.isAtLeast(ProtocolVersion.V4)) {
                    flags |= Envelope.FLAG_WARNING;
                    Primitives.writeStringList(w.warnings(), body);
                }
            }
            Opcode opcode = encodeBody(message, version, body);
            return new Envelope(version, flags, streamId, opcode, body);
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
    }

    private static Opcode encodeBody(Response response, ProtocolVersion version, ByteBuf out) {
        if (response instanceof Ready) return Opcode.READY;
        if (response instanceof Authenticate a) {
            Primitives.writeString(a.authenticator(), out);
            return Opcode.AUTHENTICATE;
        }
        if (response instanceof AuthChallenge c) {
            Primitives.writeBytes(c.token(), out);
            return Opcode.AUTH_CHALLENGE;
        }
        if (response instanceof AuthSuccess s) {
            Primitives.writeBytes(s.token(), out);
            return Opcode.AUTH_SUCCESS;
        }
        if (response instanceof Supported s) {
            Primitives.writeStringMultimap(s.options(), out);
            return Opcode.SUPPORTED;
        }
        if (response instanceof ErrorResponse e) {
            ErrorCodec.encode(e, version, out);
            return Opcode.ERROR;
        }
        if (response instanceof Result r) {
            ResultCodec.encode(r, version, out);
            return Opcode.RESULT;
        }
        if (response instanceof Event e) {
            EventCodec.encode(e, version, out);
            return Opcode.EVENT;
        }
        throw new IllegalArgumentException("cannot encode " + response);
    }

    /**
     * Decodes a response envelope as a client would; the envelope is not released. A tracing id, if flagged, is
     * skipped; warnings come back as {@link WithWarnings}.
     *
     * @throws ProtocolException when the body is malformed
     */
    public static Response decode(Envelope envelope, TypeOptionDecoder types) {
        ByteBuf in = envelope.body().duplicate();
        ProtocolVersion version = envelope.version();
        if (envelope.hasFlag(Envelope.FLAG_TRACING)) Primitives.readUuid(in, "tracing id");
        List<String> warnings = envelope.hasFlag(Envelope.FLAG_WARNING) ? Primitives.readStringList(in, "warnings") : List.of();
        if (envelope.hasFlag(Envelope.FLAG_CUSTOM_PAYLOAD)) Primitives.skipBytesMap(in, "custom payload");
        Response response;
        switch (envelope.opcode()) {
            case READY: response = new Ready(); break;
            case AUTHENTICATE: response = new Authenticate(Primitives.readString(in, "authenticator")); break;
            case AUTH_CHALLENGE: response = new AuthChallenge(Primitives.readBytes(in, "token")); break;
            case AUTH_SUCCESS: response = new AuthSuccess(Primitives.readBytes(in, "token")); break;
            case SUPPORTED: response = new Supported(Primitives.readStringMultimap(in, "supported options")); break;
            case ERROR: response = ErrorCodec.decode(in, version); break;
            case RESULT: response = ResultCodec.decode(in, version, types); break;
            case EVENT: response = EventCodec.decode(in, version); break;
            default: throw new ProtocolException("Opcode " + envelope.opcode() + " is not a response");
        }
        return response.withWarnings(warnings);
    }
}

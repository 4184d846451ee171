package ballot.cql.protocol.message;

import static ballot.cql.protocol.Primitives.readConsistency;
import static ballot.cql.protocol.Primitives.readInt;
import static ballot.cql.protocol.Primitives.readString;

import ballot.cql.WriteType;
import ballot.cql.error.ErrorCode;
import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Primitives;
import ballot.cql.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ERROR bodies (native_protocol_v5.spec §8). Errors a version cannot express are sent as their nearest older form, as
 * Cassandra does: before v5, CAS_WRITE_UNKNOWN becomes a CAS WRITE_TIMEOUT; before v4, READ/WRITE_FAILURE become
 * timeouts and FUNCTION_FAILURE/CDC_WRITE_FAILURE become INVALID.
 */
final class ErrorCodec {
    private ErrorCodec() {}

    static void encode(ErrorResponse error, ProtocolVersion version, ByteBuf out) {
        ErrorResponse e = expressibleIn(error, version);
        out.writeInt(e.code().code());
        Primitives.writeString(e.message(), out);
        ErrorResponse.Detail detail = e.detail();
        if (detail instanceof ErrorResponse.Unavailable u) {
            Primitives.writeConsistency(u.consistency(), out);
            out.writeInt(u.required());
            out.writeInt(u.alive());
        } else if (detail instanceof ErrorResponse.WriteTimeout w) {
            Primitives.writeConsistency(w.consistency(), out);
            out.writeInt(w.received());
            out.writeInt(w.blockFor());
            Primitives.writeString(w.writeType().name(), out);
            // No <contentions> after CAS even in v5: no driver reads it, and the Java driver, decoding a v5 segment's
            // frames back to back, takes those bytes for the next frame and drops the connection.
        } else if (detail instanceof ErrorResponse.ReadTimeout r) {
            Primitives.writeConsistency(r.consistency(), out);
            out.writeInt(r.received());
            out.writeInt(r.blockFor());
            out.writeByte(r.dataPresent() ? 1 : 0);
        } else if (detail instanceof ErrorResponse.ReadFailure r) {
            Primitives.writeConsistency(r.consistency(), out);
            out.writeInt(r.received());
            out.writeInt(r.blockFor());
            writeFailures(r.failures(), r.failureByReplica(), version, out);
            out.writeByte(r.dataPresent() ? 1 : 0);
        } else if (detail instanceof ErrorResponse.WriteFailure w) {
            Primitives.writeConsistency(w.consistency(), out);
            out.writeInt(w.received());
            out.writeInt(w.blockFor());
            writeFailures(w.failures(), w.failureByReplica(), version, out);
            Primitives.writeString(w.writeType().name(), out);
        } else if (detail instanceof ErrorResponse.FunctionFailure f) {
            Primitives.writeString(f.keyspace(), out);
            Primitives.writeString(f.function(), out);
            Primitives.writeStringList(f.argumentTypes(), out);
        } else if (detail instanceof ErrorResponse.AlreadyExists a) {
            Primitives.writeString(a.keyspace(), out);
            Primitives.writeString(a.table(), out);
        } else if (detail instanceof ErrorResponse.Unprepared u) {
            Primitives.writeShortBytes(u.statementId(), out);
        } else if (detail instanceof ErrorResponse.CasWriteUnknown c) {
            Primitives.writeConsistency(c.consistency(), out);
            out.writeInt(c.received());
            out.writeInt(c.blockFor());
        }
    }

    /** v5 sends the failure map, [int] n then n × ([inetaddr], [short] reason); older versions only n. */
    private static void writeFailures(int failures, Map<InetAddress, Integer> byReplica, ProtocolVersion version, ByteBuf out) {
        if (!version.isAtLeast(ProtocolVersion.V5)) {
            out.writeInt(failures);
            return;
        }
        out.writeInt(byReplica.size());
        byReplica.forEach((replica, reason) -> {
            Primitives.writeInetAddr(replica, out);
            out.writeShort(reason);
        });
    }

    private static ErrorResponse expressibleIn(ErrorResponse e, ProtocolVersion version) {
        ErrorResponse.Detail d = e.detail();
        if (!version.isAtLeast(ProtocolVersion.V5) && d instanceof ErrorResponse.CasWriteUnknown c)
            return new ErrorResponse(ErrorCode.WRITE_TIMEOUT, e.message(),
                    new ErrorResponse.WriteTimeout(c.consistency(), c.received(), c.blockFor(), WriteType.CAS, 0));
        if (version.isAtLeast(ProtocolVersion.V4)) return e;
        if (d instanceof ErrorResponse.ReadFailure r)
            return new ErrorResponse(ErrorCode.READ_TIMEOUT, e.message(),
                    new ErrorResponse.ReadTimeout(r.consistency(), r.received(), r.blockFor(), r.dataPresent()));
        if (d instanceof ErrorResponse.WriteFailure w)
            return new ErrorResponse(ErrorCode.WRITE_TIMEOUT, e.message(),
                    new ErrorResponse.WriteTimeout(w.consistency(), w.received(), w.blockFor(), w.writeType(), 0));
        if (e.code() == ErrorCode.FUNCTION_FAILURE || e.code() == ErrorCode.CDC_WRITE_FAILURE)
            return new ErrorResponse(ErrorCode.INVALID, "ERROR " + e.code() + ": " + e.message());
        return e;
    }

    static ErrorResponse decode(ByteBuf in, ProtocolVersion version) {
        int codeValue = readInt(in, "error code");
        ErrorCode code = null;
        for (ErrorCode c : ErrorCode.values()) if (c.code() == codeValue) code = c;
        if (code == null) throw new ProtocolException("Unknown error code 0x" + Integer.toHexString(codeValue));
        String message = readString(in, "error message");
        ErrorResponse.Detail detail;
        switch (code) {
            case UNAVAILABLE:
                detail = new ErrorResponse.Unavailable(readConsistency(in, "cl"), readInt(in, "required"), readInt(in, "alive"));
                break;
            case WRITE_TIMEOUT: {
                var cl = readConsistency(in, "cl");
                int received = readInt(in, "received");
                int blockFor = readInt(in, "blockfor");
                WriteType type = WriteType.valueOf(readString(in, "write type"));
                // a peer that follows the v5 spec to the letter sends <contentions> after CAS
                int contentions = type == WriteType.CAS && in.readableBytes() >= 2 ? Primitives.readUnsignedShort(in, "contentions") : 0;
                detail = new ErrorResponse.WriteTimeout(cl, received, blockFor, type, contentions);
                break;
            }
            case READ_TIMEOUT:
                detail = new ErrorResponse.ReadTimeout(readConsistency(in, "cl"), readInt(in, "received"),
                        readInt(in, "blockfor"), Primitives.readUnsignedByte(in, "data present") != 0);
                break;
            case READ_FAILURE: {
                var cl = readConsistency(in, "cl");
                int received = readInt(in, "received");
                int blockFor = readInt(in, "blockfor");
                int failures = readInt(in, "failures");
                Map<InetAddress, Integer> byReplica = readFailureMap(in, failures, version);
                boolean dataPresent = Primitives.readUnsignedByte(in, "data present") != 0;
                detail = new ErrorResponse.ReadFailure(cl, received, blockFor, failures, byReplica, dataPresent);
                break;
            }
            case WRITE_FAILURE: {
                var cl = readConsistency(in, "cl");
                int received = readInt(in, "received");
                int blockFor = readInt(in, "blockfor");
                int failures = readInt(in, "failures");
                Map<InetAddress, Integer> byReplica = readFailureMap(in, failures, version);
                WriteType type = WriteType.valueOf(readString(in, "write type"));
                detail = new ErrorResponse.WriteFailure(cl, received, blockFor, failures, byReplica, type);
                break;
            }
            case FUNCTION_FAILURE:
                detail = new ErrorResponse.FunctionFailure(readString(in, "keyspace"), readString(in, "function"),
                        Primitives.readStringList(in, "argument types"));
                break;
            case ALREADY_EXISTS:
                detail = new ErrorResponse.AlreadyExists(readString(in, "keyspace"), readString(in, "table"));
                break;
            case UNPREPARED:
                detail = new ErrorResponse.Unprepared(Primitives.readShortBytes(in, "statement id"));
                break;
            case CAS_WRITE_UNKNOWN:
                detail = new ErrorResponse.CasWriteUnknown(readConsistency(in, "cl"), readInt(in, "received"),
                        readInt(in, "blockfor"));
                break;
            default:
                detail = null;
        }
        return new ErrorResponse(code, message, detail);
    }

    private static Map<InetAddress, Integer> readFailureMap(ByteBuf in, int failures, ProtocolVersion version) {
        Map<InetAddress, Integer> byReplica = new LinkedHashMap<>();
        if (version.isAtLeast(ProtocolVersion.V5))
            for (int i = 0; i < failures; i++)
                byReplica.put(Primitives.readInetAddr(in, "failed replica"), Primitives.readUnsignedShort(in, "failure reason"));
        return byReplica;
    }
}

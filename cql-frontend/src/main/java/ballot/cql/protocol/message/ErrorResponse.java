package ballot.cql.protocol.message;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.CqlException;
import ballot.cql.error.ErrorCode;
import ballot.cql.error.FunctionFailureException;
import ballot.cql.error.ReadFailureException;
import ballot.cql.error.ReadTimeoutException;
import ballot.cql.error.UnavailableException;
import ballot.cql.error.UnpreparedException;
import ballot.cql.error.WriteFailureException;
import ballot.cql.error.WriteTimeoutException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * An ERROR message: a code, a message, and for some codes a {@link Detail} payload (native_protocol_v5.spec §8).
 * {@link #from(CqlException)} is the one place where exceptions become error payloads. Codes that have no
 * exception class (CAS_WRITE_UNKNOWN) are built directly and returned as the response.
 */
public record ErrorResponse(ErrorCode code, String message, Detail detail) implements Response {
    public ErrorResponse {
        Class<? extends Detail> expected = detailType(code);
        if (expected == null ? detail != null : !expected.isInstance(detail))
            throw new IllegalArgumentException(code + " needs detail " + (expected == null ? "none" : expected.getSimpleName())
                    + ", got " + detail);
        if (message == null) message = "";
    }

    public ErrorResponse(ErrorCode code, String message) {
        this(code, message, null);
    }

    /** The code-specific part of an error body. */
    public sealed interface Detail
            permits Unavailable, WriteTimeout, ReadTimeout, ReadFailure, WriteFailure, FunctionFailure, AlreadyExists,
                    Unprepared, CasWriteUnknown {}

    public record Unavailable(ConsistencyLevel consistency, int required, int alive) implements Detail {}

    /** {@code contentions} (CAS only) is kept for logs; it is not sent: see {@code ErrorCodec}. */
    public record WriteTimeout(ConsistencyLevel consistency, int received, int blockFor, WriteType writeType,
                               int contentions) implements Detail {}

    public record ReadTimeout(ConsistencyLevel consistency, int received, int blockFor, boolean dataPresent)
            implements Detail {}

    /**
     * @param failureByReplica the failure reason code of each replica that failed; v4 and earlier send only
     *     {@code failures}, its size, so a decoded v4 error has an empty map
     */
    public record ReadFailure(ConsistencyLevel consistency, int received, int blockFor, int failures,
                              Map<InetAddress, Integer> failureByReplica, boolean dataPresent) implements Detail {
        public ReadFailure {
            failureByReplica = inWireOrder(failureByReplica);
        }

        public ReadFailure(ConsistencyLevel consistency, int received, int blockFor,
                           Map<InetAddress, Integer> failureByReplica, boolean dataPresent) {
            this(consistency, received, blockFor, failureByReplica.size(), failureByReplica, dataPresent);
        }
    }

    /** See {@link ReadFailure} for {@code failures} and {@code failureByReplica}. */
    public record WriteFailure(ConsistencyLevel consistency, int received, int blockFor, int failures,
                               Map<InetAddress, Integer> failureByReplica, WriteType writeType) implements Detail {
        public WriteFailure {
            failureByReplica = inWireOrder(failureByReplica);
        }

        public WriteFailure(ConsistencyLevel consistency, int received, int blockFor,
                            Map<InetAddress, Integer> failureByReplica, WriteType writeType) {
            this(consistency, received, blockFor, failureByReplica.size(), failureByReplica, writeType);
        }
    }

    public record FunctionFailure(String keyspace, String function, List<String> argumentTypes) implements Detail {
        public FunctionFailure {
            argumentTypes = List.copyOf(argumentTypes);
        }
    }

    /** {@code table} is empty when the keyspace itself exists. */
    public record AlreadyExists(String keyspace, String table) implements Detail {}

    public record Unprepared(ByteBuffer statementId) implements Detail {}

    /** v5: a contended CAS may or may not have been applied. Older clients see a CAS WRITE_TIMEOUT. */
    public record CasWriteUnknown(ConsistencyLevel consistency, int received, int blockFor) implements Detail {}

    /** The error a client receives for {@code e}, with the payload its code requires. */
    public static ErrorResponse from(CqlException e) {
        String message = e.getMessage();
        if (e instanceof UnavailableException u)
            return new ErrorResponse(e.code(), message, new Unavailable(u.consistency(), u.required(), u.alive()));
        if (e instanceof WriteTimeoutException w)
            return new ErrorResponse(e.code(), message,
                    new WriteTimeout(w.consistency(), w.received(), w.blockFor(), w.writeType(), w.contentions()));
        if (e instanceof ReadTimeoutException r)
            return new ErrorResponse(e.code(), message, new ReadTimeout(r.consistency(), r.received(), r.blockFor(), r.dataPresent()));
        if (e instanceof ReadFailureException f) {
            Map<InetAddress, Integer> byReplica = new java.util.LinkedHashMap<>();
            f.failures().forEach((replica, reason) -> byReplica.put(replica.getAddress(), reason.code()));
            return new ErrorResponse(e.code(), message, new ReadFailure(f.consistency(), f.received(), f.blockFor(), byReplica, false));
        }
        if (e instanceof WriteFailureException f) {
            Map<InetAddress, Integer> byReplica = new java.util.LinkedHashMap<>();
            f.failures().forEach((replica, reason) -> byReplica.put(replica.getAddress(), reason.code()));
            return new ErrorResponse(e.code(), message, new WriteFailure(f.consistency(), f.received(), f.blockFor(), byReplica, f.writeType()));
        }
        if (e instanceof UnpreparedException u)
            return new ErrorResponse(e.code(), message, new Unprepared(ByteBuffer.wrap(u.statementId())));
        if (e instanceof AlreadyExistsException a)
            return new ErrorResponse(e.code(), message, new AlreadyExists(a.keyspace(), a.table()));
        if (e instanceof FunctionFailureException f)
            return new ErrorResponse(e.code(), message, new FunctionFailure(f.keyspace(), f.function(), f.argumentTypes()));
        if (detailType(e.code()) != null)
            return new ErrorResponse(ErrorCode.SERVER_ERROR, e.getClass().getName() + " has code " + e.code()
                    + " but no payload for it: " + message);
        return new ErrorResponse(e.code(), message);
    }

    /** SERVER_ERROR for an unexpected failure: the message names the exception, as Cassandra's does. */
    public static ErrorResponse serverError(Throwable t) {
        return new ErrorResponse(ErrorCode.SERVER_ERROR, t.toString());
    }

    public static ErrorResponse protocolError(String message) {
        return new ErrorResponse(ErrorCode.PROTOCOL_ERROR, message);
    }

    /** An unmodifiable copy that keeps the caller's order, so that the encoding is deterministic. */
    private static Map<InetAddress, Integer> inWireOrder(Map<InetAddress, Integer> map) {
        return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(map));
    }

    static Class<? extends Detail> detailType(ErrorCode code) {
        switch (code) {
            case UNAVAILABLE: return Unavailable.class;
            case WRITE_TIMEOUT: return WriteTimeout.class;
            case READ_TIMEOUT: return ReadTimeout.class;
            case READ_FAILURE: return ReadFailure.class;
            case WRITE_FAILURE: return WriteFailure.class;
            case FUNCTION_FAILURE: return FunctionFailure.class;
            case ALREADY_EXISTS: return AlreadyExists.class;
            case UNPREPARED: return Unprepared.class;
            case CAS_WRITE_UNKNOWN: return CasWriteUnknown.class;
            default: return null;
        }
    }
}

package ballot.cql.transport;

import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.Response;
import ballot.cql.trace.TraceSession;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Runs the statements clients send: {@link ballot.cql.protocol.message.Query}, {@link ballot.cql.protocol.message.Prepare},
 * {@link ballot.cql.protocol.message.Execute} and {@link ballot.cql.protocol.message.Batch}. Connection-level requests
 * (STARTUP, OPTIONS, REGISTER, AUTH_RESPONSE) never reach it.
 *
 * <p>Called on the connection's event loop: it must not block. The stage may complete on any thread, in any order
 * relative to other requests of the same connection. Failing it (or throwing) with a
 * {@link ballot.cql.error.CqlException} sends that error to the client; any other exception is treated as a bug:
 * logged, and answered with SERVER_ERROR. Errors without an exception class (CAS_WRITE_UNKNOWN) are
 * completed normally as an {@link ballot.cql.protocol.message.ErrorResponse}.
 *
 * <p>The transport applies the request's Skip_metadata to a {@link ballot.cql.protocol.message.Rows} answer; the
 * handler returns full metadata and, for EXECUTE in v5, sets {@code newMetadataId} when the client's result metadata id
 * is stale. On USE, the handler sets {@link ClientState#keyspace(String)} and answers
 * {@link ballot.cql.protocol.message.SetKeyspace}. A {@link ballot.cql.protocol.message.Prepared} answer says whether
 * the statement is conditional ({@link ballot.cql.protocol.message.PreparedMetadata#lwt()}) whatever the client; the
 * transport keeps that mark only for clients that negotiated {@link ProtocolExtension#LWT_ADD_METADATA_MARK}.
 */
@FunctionalInterface
public interface RequestHandler {
    CompletionStage<? extends Response> handle(Request request, ClientState client);

    /**
     * Handles a traced request, recording its steps in {@code trace}. The transport opened the session and finishes
     * it when the stage completes; a handler that records nothing may ignore it.
     */
    default CompletionStage<? extends Response> handle(Request request, ClientState client, TraceSession trace) {
        return handle(request, client);
    }

    /**
     * What the transport calls for every request: {@code payload} is its custom payload (protocol v4+; empty when it has
     * none), {@code trace} its trace or null. A handler that reads no payload key may ignore it, as Cassandra ignores
     * keys it does not know.
     */
    default CompletionStage<? extends Response> handle(Request request, ClientState client, TraceSession trace, Map<String, ByteBuffer> payload) {
        return trace == null ? handle(request, client) : handle(request, client, trace);
    }
}

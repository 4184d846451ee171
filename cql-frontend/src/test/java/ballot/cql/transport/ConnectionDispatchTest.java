package ballot.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.ErrorCode;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.ErrorResponse;
import ballot.cql.protocol.message.Execute;
import ballot.cql.protocol.message.Options;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.ResponseCodec;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.SetKeyspace;
import ballot.cql.protocol.message.Supported;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Statements on a started connection: concurrency, ordering, errors and backpressure. */
class ConnectionDispatchTest {
    private final ScriptedHandler handler = new ScriptedHandler();

    private static Query query(String cql) {
        return new Query(cql, QueryOptions.of(ConsistencyLevel.ONE, List.of()));
    }

    @Test
    void answersOutOfOrderOnEachRequestsStream() {
        EmbeddedClient client = new EmbeddedClient(handler).start(null);
        client.send(query("first"), 10);
        client.send(query("second"), 20);

        handler.call(1).answer().complete(new SetKeyspace("b"));
        handler.call(0).answer().complete(new SetKeyspace("a"));

        Envelope first = client.nextEnvelope();
        Envelope second = client.nextEnvelope();
        assertThat(first.streamId()).isEqualTo(20);
        assertThat(decode(first)).isEqualTo(new SetKeyspace("b"));
        assertThat(second.streamId()).isEqualTo(10);
        assertThat(decode(second)).isEqualTo(new SetKeyspace("a"));
    }

    @Test
    void sendsACqlExceptionAsAnErrorOnItsStreamWhetherThrownOrCompleted() {
        RequestHandler throwing = (request, state) -> {
            throw new InvalidRequestException("unconfigured table t");
        };
        EmbeddedClient thrown = new EmbeddedClient(throwing).start(null);
        EmbeddedClient completed = new EmbeddedClient(handler).start(null);

        thrown.send(query("SELECT * FROM t"), 4);
        completed.send(query("INSERT ..."), 5);
        handler.call(0).answer().completeExceptionally(
                new WriteTimeoutException(ConsistencyLevel.SERIAL, 0, 2, WriteType.CAS, 1));

        Envelope invalid = thrown.nextEnvelope();
        assertThat(invalid.streamId()).isEqualTo(4);
        assertThat(decode(invalid)).isEqualTo(new ErrorResponse(ErrorCode.INVALID, "unconfigured table t"));
        assertThat(completed.next()).isEqualTo(new ErrorResponse(ErrorCode.WRITE_TIMEOUT,
                "Operation timed out - received only 0 responses (2 required) for CAS write at consistency SERIAL",
                // contentions stay off the wire (ErrorCodec): the client reads 0
                new ErrorResponse.WriteTimeout(ConsistencyLevel.SERIAL, 0, 2, WriteType.CAS, 0)));
        assertThat(thrown.isOpen()).isTrue();
    }

    @Test
    void answersABugWithServerErrorAndKeepsServing() {
        EmbeddedClient client = new EmbeddedClient(handler).start(null);

        client.send(query("SELECT 1"), 1);
        handler.call(0).answer().completeExceptionally(new IllegalStateException("row count went negative"));
        client.send(query("SELECT 2"), 2);
        handler.call(1).answer().complete(new VoidResult());

        assertThat(client.next()).isEqualTo(new ErrorResponse(ErrorCode.SERVER_ERROR,
                "java.lang.IllegalStateException: row count went negative"));
        assertThat(client.next()).isEqualTo(new VoidResult());
        assertThat(client.isOpen()).isTrue();
    }

    @Test
    void passesErrorResponsesTheHandlerReturnsThrough() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4).start(null);
        ErrorResponse failure = new ErrorResponse(ErrorCode.WRITE_FAILURE, "replica failed",
                new ErrorResponse.WriteFailure(ConsistencyLevel.ONE, 0, 1, java.util.Map.of(), WriteType.SIMPLE));

        client.send(query("INSERT ..."), 1);
        handler.call(0).answer().complete(failure);

        assertThat(client.next()).isEqualTo(failure);
    }

    @Test
    void limitsRequestsInFlightAndStopsReadingUntilOneCompletes() {
        CqlServerOptions options = CqlServerOptions.builder().inFlightRequestsMax(2).build();
        EmbeddedClient client = new EmbeddedClient(options, handler, new EventBroadcaster()).start(null);

        client.send(query("q1"), 1);
        client.send(query("q2"), 2);
        client.send(query("q3"), 3);
        assertThat(handler.calls).hasSize(2);
        assertThat(client.channel.config().isAutoRead()).isFalse();

        handler.call(0).answer().complete(new VoidResult());
        assertThat(handler.calls).extracting(ScriptedHandler.Call::query).containsExactly("q1", "q2", "q3");
        assertThat(client.channel.config().isAutoRead()).isFalse();

        handler.call(1).answer().complete(new VoidResult());
        assertThat(client.channel.config().isAutoRead()).isTrue();
        handler.call(2).answer().complete(new VoidResult());
        assertThat(List.of(client.nextEnvelope().streamId(), client.nextEnvelope().streamId(), client.nextEnvelope().streamId()))
                .containsExactly(1, 2, 3);
    }

    @Test
    void stopsReadingWhileTheChannelIsNotWritable() {
        EmbeddedClient client = new EmbeddedClient(handler).start(null);

        client.channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        client.channel.runPendingTasks();
        assertThat(client.channel.config().isAutoRead()).isFalse();

        client.channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        client.channel.runPendingTasks();
        assertThat(client.channel.config().isAutoRead()).isTrue();
    }

    @Test
    void answersConnectionRequestsWhileStatementsWait() {
        CqlServerOptions options = CqlServerOptions.builder().inFlightRequestsMax(1).build();
        EmbeddedClient client = new EmbeddedClient(options, handler, new EventBroadcaster()).start(null);

        client.send(query("slow"), 1);
        client.send(new Options(), 2);

        assertThat(client.next()).isInstanceOf(Supported.class);
        assertThat(handler.calls).hasSize(1);
    }

    @Test
    void dropsColumnSpecsWhenAQueryAskedToSkipMetadataAndLeavesExecuteToTheHandler() {
        EmbeddedClient client = new EmbeddedClient(handler).start(null);
        RowsMetadata full = RowsMetadata.of(List.of(new ColumnSpec("ks", "t", "k", CqlTypes.INT)));
        ByteBuffer[] row = {CqlTypes.INT.decompose(7)};
        QueryOptions skipping = QueryOptions.of(ConsistencyLevel.ONE, List.of()).withSkipMetadata(true);

        client.send(new Query("SELECT k FROM ks.t", skipping), 1);
        handler.call(0).answer().complete(new Rows(full, List.<ByteBuffer[]>of(row)));
        client.send(new Execute(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2}), skipping), 2);
        handler.call(1).answer().complete(new Rows(full, List.<ByteBuffer[]>of(row)));
        client.send(query("SELECT k FROM ks.t"), 3);
        handler.call(2).answer().complete(new Rows(full, List.<ByteBuffer[]>of(row)));

        Rows skipped = (Rows) client.next();
        Rows executed = (Rows) client.next();
        Rows kept = (Rows) client.next();
        assertThat(skipped.metadata().noMetadata()).isTrue();
        assertThat(skipped.metadata().columnCount()).isEqualTo(1);
        assertThat(skipped.rows().get(0)).containsExactly(CqlTypes.INT.decompose(7));
        assertThat(executed.metadata().columns()).hasSize(1);
        assertThat(kept.metadata().columns()).hasSize(1);
    }

    @Test
    void sharesOneClientStateWhoseKeyspaceTheHandlerSets() {
        List<String> keyspacesSeen = new java.util.ArrayList<>();
        RequestHandler use = (request, state) -> {
            keyspacesSeen.add(state.keyspace());
            state.keyspace("ks");
            return CompletableFuture.completedFuture(new SetKeyspace("ks"));
        };
        EmbeddedClient client = new EmbeddedClient(use).start(null);

        client.send(query("USE ks"), 1);
        client.send(query("SELECT 1"), 2);

        assertThat(client.next()).isEqualTo(new SetKeyspace("ks"));
        assertThat(keyspacesSeen).containsExactly(null, "ks");
    }

    private static ballot.cql.protocol.message.Response decode(Envelope envelope) {
        return ResponseCodec.decode(envelope, in -> null);
    }
}

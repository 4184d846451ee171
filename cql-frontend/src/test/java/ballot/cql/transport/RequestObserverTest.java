package ballot.cql.transport;

import static ballot.cql.protocol.TestBytes.hex;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.ErrorCode;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.ErrorResponse;
import ballot.cql.protocol.message.Options;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.VoidResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The connection tells its {@link RequestObserver} every request's opcode and every error code it sends. */
class RequestObserverTest {
    private final ScriptedHandler handler = new ScriptedHandler();
    private final List<Opcode> received = new ArrayList<>();
    private final List<ErrorCode> errors = new ArrayList<>();
    private final CqlServerOptions options = CqlServerOptions.builder().observer(new RequestObserver() {
        @Override
        public void received(Opcode opcode) {
            received.add(opcode);
        }

        @Override
        public void errorSent(ErrorCode code) {
            errors.add(code);
        }
    }).build();

    private static Query query(String cql) {
        return new Query(cql, QueryOptions.of(ConsistencyLevel.ONE, List.of()));
    }

    @Test
    void hearsEveryRequestsOpcodeAndTheCodeOfEveryErrorAnswer() {
        EmbeddedClient client = new EmbeddedClient(options, handler, new EventBroadcaster()).start(null);
        client.send(new Options(), 1);
        client.send(query("INSERT ..."), 2);
        client.send(query("SELECT ..."), 3);
        client.send(query("UPDATE ..."), 4);
        handler.call(0).answer().complete(new VoidResult());
        handler.call(1).answer().completeExceptionally(new InvalidRequestException("unconfigured table t"));
        handler.call(2).answer().complete(new ErrorResponse(ErrorCode.WRITE_FAILURE, "replica failed",
                new ErrorResponse.WriteFailure(ConsistencyLevel.ONE, 0, 1, Map.of(), WriteType.SIMPLE)));

        assertThat(received).containsExactly(Opcode.STARTUP, Opcode.OPTIONS, Opcode.QUERY, Opcode.QUERY, Opcode.QUERY);
        assertThat(errors).containsExactly(ErrorCode.INVALID, ErrorCode.WRITE_FAILURE);
    }

    @Test
    void hearsTheProtocolErrorThatClosesAConnection() {
        EmbeddedClient client = new EmbeddedClient(options, handler, new EventBroadcaster()).version(ProtocolVersion.V4).start(null);

        client.sendBytes(hex("04 00 00 0b 07 00 00 00 06 00 00 00 08 53 45")); // a QUERY whose string is cut short

        assertThat(client.next()).isInstanceOf(ErrorResponse.class);
        assertThat(client.isOpen()).isFalse();
        assertThat(received).containsExactly(Opcode.STARTUP, Opcode.QUERY);
        assertThat(errors).containsExactly(ErrorCode.PROTOCOL_ERROR);
    }
}

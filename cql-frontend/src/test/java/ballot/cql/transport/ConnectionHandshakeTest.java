package ballot.cql.transport;

import static ballot.cql.protocol.TestBytes.hex;
import static ballot.cql.protocol.TestBytes.hexOf;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.AuthenticationException;
import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.AuthChallenge;
import ballot.cql.protocol.message.AuthResponse;
import ballot.cql.protocol.message.AuthSuccess;
import ballot.cql.protocol.message.Authenticate;
import ballot.cql.protocol.message.ErrorResponse;
import ballot.cql.protocol.message.Options;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Ready;
import ballot.cql.protocol.message.Startup;
import ballot.cql.protocol.message.Supported;
import ballot.cql.protocol.message.VoidResult;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** OPTIONS, STARTUP, version negotiation and authentication on one connection (native_protocol_v5.spec §2.3, §4.1.1). */
class ConnectionHandshakeTest {
    private final ScriptedHandler handler = new ScriptedHandler();

    private static Query query(String cql) {
        return new Query(cql, QueryOptions.of(ConsistencyLevel.ONE, List.of()));
    }

    @Test
    void answersTheSpecsOptionsBytesWithSupported() {
        CqlServerOptions options = CqlServerOptions.builder().supportedOption("X_EXTENSION", List.of("on")).build();
        EmbeddedClient client = new EmbeddedClient(options, handler, new EventBroadcaster());

        client.sendBytes(hex("04 00 00 00 05 00 00 00 00"));
        Envelope envelope = client.nextEnvelope();

        assertThat(envelope.version()).isEqualTo(ProtocolVersion.V4);
        assertThat(envelope.opcode()).isEqualTo(Opcode.SUPPORTED);
        assertThat(envelope.streamId()).isZero();
        client.version(ProtocolVersion.V4);
        assertThat(((Supported) ballot.cql.protocol.message.ResponseCodec.decode(envelope, in -> null)).options())
                .containsEntry("CQL_VERSION", List.of("3.4.7"))
                .containsEntry("COMPRESSION", List.of("snappy", "lz4"))
                .containsEntry("PROTOCOL_VERSIONS", List.of("3/v3", "4/v4", "5/v5"))
                .containsEntry("X_EXTENSION", List.of("on"));
    }

    @Test
    void answersOptionsBeforeStartupUnframedInTheVersionAsked() {
        EmbeddedClient client = new EmbeddedClient(handler);

        client.sendBytes(hex("05 00 00 07 05 00 00 00 00"));

        assertThat(hexOf(client.rawOutbound().slice(0, 5))).isEqualTo("85 00 00 07 06");
    }

    @Test
    void rejectsTheDriversFirstDseVersionLikeCassandraAndCloses() {
        EmbeddedClient client = new EmbeddedClient(handler);

        // The Java and Python drivers open with OPTIONS in DSE_V2 (0x42) on stream 0.
        client.sendBytes(hex("42 00 00 00 05 00 00 00 00"));
        Envelope error = client.nextEnvelope();

        assertThat(error.version()).isEqualTo(ProtocolVersion.V5);
        assertThat(error.streamId()).isZero();
        assertThat(decode(error)).isEqualTo(ErrorResponse.protocolError(
                "Invalid or unsupported protocol version (66); supported versions are (3/v3, 4/v4, 5/v5)"));
        assertThat(client.nextEnvelope()).isNull();
        assertThat(client.isOpen()).isFalse();
    }

    @Test
    void answersObsoleteVersionsInTheirOwnEightByteHeader() {
        EmbeddedClient client = new EmbeddedClient(handler);

        client.sendBytes(hex("02 00 05 05 00 00 00 00"));
        ByteBuf wire = client.rawOutbound();

        // v2 header: version 0x82, flags, 1-byte stream, opcode ERROR, [int] length; then code 0x000A and message
        assertThat(hexOf(wire.slice(0, 4))).isEqualTo("82 00 00 00");
        assertThat(wire.getInt(4)).isEqualTo(wire.readableBytes() - 8);
        assertThat(wire.getInt(8)).isEqualTo(0x000A);
        assertThat(wire.toString(14, wire.readableBytes() - 14, StandardCharsets.UTF_8)).startsWith("Invalid or unsupported protocol version (2)");
        assertThat(client.isOpen()).isFalse();
    }

    @Test
    void answersStartupWithReadyAndHandsStatementsToTheHandler() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4);
        client.send(new Startup(Map.of("CQL_VERSION", "3.4.7", "DRIVER_NAME", "test driver", "DRIVER_VERSION", "1.0")), 1);

        assertThat(client.next()).isEqualTo(new Ready());
        client.send(query("SELECT 1"), 2);
        handler.call(0).answer().complete(new VoidResult());

        assertThat(client.next()).isEqualTo(new VoidResult());
        ClientState state = handler.call(0).client();
        assertThat(state.protocolVersion()).isEqualTo(ProtocolVersion.V4);
        assertThat(state.driverName()).isEqualTo("test driver");
        assertThat(state.driverVersion()).isEqualTo("1.0");
        assertThat(state.remoteAddress()).isNotNull();
    }

    @Test
    void refusesStatementsBeforeStartupButStaysOpen() {
        EmbeddedClient client = new EmbeddedClient(handler);

        client.send(query("SELECT 1"), 3);

        assertThat(client.next()).isEqualTo(ErrorResponse.protocolError("Unexpected message QUERY, expecting STARTUP or OPTIONS"));
        assertThat(handler.calls).isEmpty();
        client.send(new Options(), 4);
        assertThat(client.next()).isInstanceOf(Supported.class);
    }

    @Test
    void refusesAStartupWithoutCqlVersionAndAcceptsACorrectOneAfterwards() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4);

        client.send(new Startup(Map.of()), 0);
        assertThat(client.next()).isEqualTo(ErrorResponse.protocolError("Missing value CQL_VERSION in STARTUP message"));

        client.send(new Startup(Map.of("CQL_VERSION", "3.0.0")), 1);
        assertThat(client.next()).isEqualTo(new Ready());
    }

    @Test
    void refusesUnknownCompressionsSnappyInV5AndCqlVersionsOtherThan3() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V5);

        client.send(new Startup(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "snappy")), 0);
        assertThat(client.next()).isEqualTo(ErrorResponse.protocolError("Snappy compression is not supported in protocol V5"));
        client.send(new Startup(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "zstd")), 0);
        assertThat(client.next()).isEqualTo(ErrorResponse.protocolError("Unknown compression algorithm: zstd"));
        client.send(new Startup(Map.of("CQL_VERSION", "4.0.0")), 0);
        assertThat(client.next()).isEqualTo(ErrorResponse.protocolError("CQL version 4.0.0 is not supported; this node speaks CQL 3"));
        client.send(new Startup(Map.of("CQL_VERSION", "2.0.0")), 0);
        assertThat(((ErrorResponse) client.next()).message()).startsWith("CQL version 2.0.0 is not supported by the binary protocol");
    }

    @Test
    void rejectsAnotherVersionAfterStartupAndCloses() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4).start(null);

        client.version(ProtocolVersion.V3);
        client.send(query("SELECT 1"), 9);
        Envelope error = client.nextEnvelope();

        assertThat(error.version()).isEqualTo(ProtocolVersion.V4);
        assertThat(error.streamId()).isEqualTo(9);
        assertThat(decode(error)).isEqualTo(ErrorResponse.protocolError(
                "Invalid message version. Got 3/v3 but previous messages on this connection had version 4/v4"));
        assertThat(client.isOpen()).isFalse();
    }

    @Test
    void runsASaslExchangeBeforeAcceptingStatements() {
        CqlServerOptions options = CqlServerOptions.builder().authenticator(new PlainAuthenticator("cassandra", "secret")).build();
        EmbeddedClient client = new EmbeddedClient(options, handler, new EventBroadcaster()).version(ProtocolVersion.V4);

        client.send(new Startup(Map.of("CQL_VERSION", "3.0.0")), 0);
        assertThat(client.next()).isEqualTo(new Authenticate("org.apache.cassandra.auth.PasswordAuthenticator"));
        client.send(query("SELECT 1"), 1);
        assertThat(client.next()).isEqualTo(new ErrorResponse(ErrorCode.UNAUTHORIZED, "You have not logged in"));
        client.send(new AuthResponse(null), 2);
        assertThat(client.next()).isEqualTo(new AuthChallenge(ByteBuffer.wrap("credentials?".getBytes(StandardCharsets.UTF_8))));
        client.send(new AuthResponse(ByteBuffer.wrap("\0cassandra\0wrong".getBytes(StandardCharsets.UTF_8))), 3);
        assertThat(client.next()).isEqualTo(new ErrorResponse(ErrorCode.AUTHENTICATION_ERROR,
                "Provided username cassandra and/or password are incorrect"));
        client.send(new AuthResponse(ByteBuffer.wrap("\0cassandra\0secret".getBytes(StandardCharsets.UTF_8))), 4);
        assertThat(client.next()).isEqualTo(new AuthSuccess(null));

        client.send(query("SELECT 1"), 5);
        assertThat(handler.calls).hasSize(1);
    }

    private ballot.cql.protocol.message.Response decode(Envelope e) {
        return ballot.cql.protocol.message.ResponseCodec.decode(e, in -> null);
    }

    /** SASL PLAIN: an empty first response gets a challenge, then "\0user\0password". */
    private static final class PlainAuthenticator implements Authenticator {
        private final String user;
        private final String password;

        PlainAuthenticator(String user, String password) {
            this.user = user;
            this.password = password;
        }

        @Override
        public boolean requiresAuthentication() {
            return true;
        }

        @Override
        public String className() {
            return "org.apache.cassandra.auth.PasswordAuthenticator";
        }

        @Override
        public SaslNegotiator newNegotiator(ClientState client) {
            return new SaslNegotiator() {
                private boolean complete;

                @Override
                public CompletionStage<ByteBuffer> evaluateResponse(ByteBuffer token) {
                    if (token == null) return CompletableFuture.completedFuture(ByteBuffer.wrap("credentials?".getBytes(StandardCharsets.UTF_8)));
                    String[] parts = StandardCharsets.UTF_8.decode(token).toString().split("\0");
                    if (parts.length != 3 || !parts[1].equals(user) || !parts[2].equals(password))
                        throw new AuthenticationException("Provided username " + parts[1] + " and/or password are incorrect");
                    complete = true;
                    return CompletableFuture.completedFuture(null);
                }

                @Override
                public boolean isComplete() {
                    return complete;
                }

                @Override
                public String role() {
                    return user;
                }
            };
        }
    }
}

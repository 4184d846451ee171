package ballot.cql.transport;

import static ballot.cql.protocol.TestBytes.bytesOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.TestBytes;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Options;
import ballot.cql.protocol.message.Prepare;
import ballot.cql.protocol.message.Prepared;
import ballot.cql.protocol.message.PreparedMetadata;
import ballot.cql.protocol.message.Ready;
import ballot.cql.protocol.message.ResponseCodec;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.Startup;
import ballot.cql.protocol.message.Supported;
import ballot.cql.protocol.message.WithWarnings;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** ScyllaDB's SCYLLA_LWT_ADD_METADATA_MARK (scylladb docs/dev/protocol-extensions.md): advertised, then per connection. */
class ConnectionLwtMarkTest {
    private static final String KEY = "SCYLLA_LWT_ADD_METADATA_MARK";
    private static final Prepared CONDITIONAL = new Prepared(ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3}),
            new PreparedMetadata(List.of(new ColumnSpec("ks", "t", "k", CqlTypes.INT)), List.of(0), true), RowsMetadata.EMPTY);

    private final ScriptedHandler handler = new ScriptedHandler();

    @Test
    void advertisesTheMarkAsBit31InUnsignedDecimal() {
        EmbeddedClient client = new EmbeddedClient(handler);

        client.send(new Options(), 0);

        assertThat(((Supported) client.next()).options())
                .containsEntry(KEY, List.of("LWT_OPTIMIZATION_META_BIT_MASK=2147483648"));
    }

    @Test
    void refusesToLetTheNodeReplaceTheExtensionsKey() {
        assertThatThrownBy(() -> CqlServerOptions.builder().supportedOption(KEY, List.of("LWT_OPTIMIZATION_META_BIT_MASK=1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(KEY);
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolVersion.class, names = {"V4", "V5"})
    void keepsTheMarkForAClientThatNamedTheExtensionInStartup(ProtocolVersion version) {
        // The Java driver fork sends the mask as a signed int, the Python one unsigned; only the key counts.
        EmbeddedClient client = started(version, Map.of("CQL_VERSION", "3.0.0", KEY, "-2147483648"));

        client.send(new Prepare("INSERT INTO ks.t (k) VALUES (?) IF NOT EXISTS"), 1);
        handler.call(0).answer().complete(CONDITIONAL);

        assertThat(handler.call(0).client().uses(ProtocolExtension.LWT_ADD_METADATA_MARK)).isTrue();
        assertThat(((Prepared) client.next()).variables().lwt()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = ProtocolVersion.class, names = {"V4", "V5"})
    void sendsCassandrasBytesToAClientThatDidNotNameIt(ProtocolVersion version) {
        EmbeddedClient client = started(version, Map.of("CQL_VERSION", "3.0.0"));

        client.send(new Prepare("INSERT INTO ks.t (k) VALUES (?) IF NOT EXISTS"), 1);
        handler.call(0).answer().complete(CONDITIONAL);
        Envelope answer = client.nextEnvelope();

        Prepared unmarked = new Prepared(CONDITIONAL.statementId(), CONDITIONAL.resultMetadataId(),
                CONDITIONAL.variables().withoutLwt(), CONDITIONAL.resultMetadata());
        Envelope cassandras = ResponseCodec.encode(unmarked, 1, version, TestBytes.UNTRACKED);
        assertThat(handler.call(0).client().uses(ProtocolExtension.LWT_ADD_METADATA_MARK)).isFalse();
        assertThat(bytesOf(answer.body())).isEqualTo(bytesOf(cassandras.body()));
        cassandras.release();
    }

    @Test
    void clearsTheMarkOfAPreparedAnswerThatCarriesWarnings() {
        EmbeddedClient client = started(ProtocolVersion.V4, Map.of("CQL_VERSION", "3.0.0"));

        client.send(new Prepare("INSERT INTO ks.t (k) VALUES (?) IF NOT EXISTS"), 1);
        handler.call(0).answer().complete(CONDITIONAL.withWarnings(List.of("careful")));

        WithWarnings answer = (WithWarnings) client.next();
        assertThat(answer.warnings()).containsExactly("careful");
        assertThat(((Prepared) answer.response()).variables().lwt()).isFalse();
    }

    private EmbeddedClient started(ProtocolVersion version, Map<String, String> startupOptions) {
        EmbeddedClient client = new EmbeddedClient(handler).version(version);
        client.send(new Startup(startupOptions), 0);
        assertThat(client.next()).isEqualTo(new Ready());
        client.afterStartup(null);
        return client;
    }
}

package ballot.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.protocol.ProtocolVersion;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

/**
 * The real DataStax Java driver against {@link CqlServer} on a real socket: version negotiation (the driver opens with
 * DSE_V2 and must settle on v5, or on v4 when forced), the STARTUP handshake, v5 segments or v4 frames, LZ4, the
 * control connection's system queries and REGISTER, and rows coming back from simple and prepared SELECTs.
 */
class CqlServerDriverIT {
    static {
        for (String noisy : List.of("com.datastax.oss.driver", "io.netty"))
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(noisy)).setLevel(ch.qos.logback.classic.Level.INFO);
    }

    private CqlServer server;
    private SystemTablesHandler handler;
    private InetSocketAddress address;

    @BeforeEach
    void startServer() {
        RequestHandler[] delegate = new RequestHandler[1];
        server = new CqlServer(CqlServerOptions.builder().port(0).build(), (request, client) -> delegate[0].handle(request, client));
        address = server.start();
        handler = new SystemTablesHandler(address.getPort());
        delegate[0] = handler;
    }

    @AfterEach
    void stopServer() {
        server.stop();
    }

    private CqlSession connect(String forcedVersion, String compression) {
        ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
                .withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, false)
                .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, false)
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0);
        if (!forcedVersion.isEmpty()) config.withString(DefaultDriverOption.PROTOCOL_VERSION, forcedVersion);
        if (!compression.isEmpty()) config.withString(DefaultDriverOption.PROTOCOL_COMPRESSION, compression);
        return CqlSession.builder()
                .addContactPoint(address)
                .withLocalDatacenter("dc1")
                .withConfigLoader(config.build())
                .build();
    }

    @ParameterizedTest(name = "forced version ''{0}'', compression ''{1}''")
    @CsvSource({"'', lz4, V5", "'', '', V5", "V4, lz4, V4", "V4, '', V4"})
    void driverConnectsNegotiatesAndReadsRows(String forcedVersion, String compression, String expectedVersion) {
        try (CqlSession session = connect(forcedVersion, compression)) {
            List<Row> rows = session.execute("SELECT k, v FROM ks.kv").all();
            PreparedStatement byKey = session.prepare("SELECT k, v FROM ks.kv WHERE k = ?");
            Row one = session.execute(byKey.bind(1)).one();

            assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.valueOf(expectedVersion));
            assertThat(rows).extracting(r -> r.getInt("k")).containsExactly(1, 2);
            assertThat(rows).extracting(r -> r.getString("v")).containsExactly("one", null);
            assertThat(one.getString("v")).isEqualTo("one");
            assertThat(session.getMetadata().getNodes().values()).singleElement()
                    .satisfies(node -> assertThat(node.getDatacenter()).isEqualTo("dc1"));
            assertThat(handler.queries).contains("select cluster_name from system.local", "select * from system.local",
                    "select * from system.peers_v2");
            assertThat(handler.clients).allSatisfy(client -> {
                assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.valueOf(expectedVersion));
                assertThat(client.compression()).isEqualTo(compression.isEmpty() ? null : compression);
                assertThat(client.driverName()).contains("Java Driver");
            });
            assertThat(server.events().subscriberCount()).isEqualTo(1);
            assertThatThrownBy(() -> session.execute("SELECT nothing FROM nowhere"))
                    .isInstanceOf(InvalidQueryException.class).hasMessageContaining("test node cannot run");
        }
    }
}

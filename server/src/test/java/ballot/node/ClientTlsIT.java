package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tls.TlsContexts;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslContext;
import io.netty.handler.ssl.SslProvider;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the CQL port (client_encryption_options, docs/tls.md): real nodes in this JVM, the DataStax driver, and
 * certificates made at run time by {@link TestCertificates}.
 */
class ClientTlsIT {
    /** A refused client must learn it at once; the driver's own timeouts are set far above this. */
    private static final Duration PROMPTLY = Duration.ofSeconds(5);

    @TempDir static Path certificates;
    private static TestCertificates ca;
    private static TestCertificates otherCa;
    private static Path nodeKeystore;
    private static Path clientKeystore;
    private static Path strangerKeystore;

    @BeforeAll
    static void makeCertificates() {
        ca = TestCertificates.authority(certificates, "ballot-test-ca");
        otherCa = TestCertificates.authority(certificates, "other-ca");
        nodeKeystore = ca.keystore("node");
        clientKeystore = ca.keystore("client");
        strangerKeystore = otherCa.keystore("stranger");
    }

    @Test
    void driverOverTlsRunsQueriesAndAnLwt() {
        try (TestNode node = TestNode.start("tls", tls(options -> { }));
             CqlSession session = node.sessionBuilder(o -> { }).withSslContext(ca.clientContext(null)).build()) {
            session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            session.execute("INSERT INTO ks.t (k, v) VALUES (1, 'one')");
            assertThat(session.execute("SELECT v FROM ks.t WHERE k = 1").one().getString("v")).isEqualTo("one");
            assertThat(session.execute("INSERT INTO ks.t (k, v) VALUES (2, 'two') IF NOT EXISTS").wasApplied()).isTrue();
            assertThat(session.execute("INSERT INTO ks.t (k, v) VALUES (2, 'again') IF NOT EXISTS").wasApplied()).isFalse();
            assertThat(session.execute("UPDATE ks.t SET v = 'deux' WHERE k = 2 IF v = 'two'").wasApplied()).isTrue();
        }
    }

    /**
     * Both implementations serve the driver (docs/tls.md): OpenSSL, which ships for Linux on x86_64 and aarch64 and is
     * what auto picks there, and the JDK's.
     */
    @Test
    void openSslAndTheJdkBothServeTheDriver() {
        String arch = System.getProperty("os.arch");
        boolean nativesShipped = System.getProperty("os.name").startsWith("Linux") && (arch.equals("amd64") || arch.equals("aarch64"));
        if (nativesShipped) assertThat(OpenSsl.isAvailable()).as("netty-tcnative loads: %s", OpenSsl.unavailabilityCause()).isTrue();
        ballot.tls.ClientEncryptionOptions auto = new ballot.tls.ClientEncryptionOptions();
        assertThat(TlsContexts.provider(auto, "client_encryption_options"))
                .isEqualTo(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK);
        for (String provider : OpenSsl.isAvailable() ? java.util.List.of("openssl", "jdk") : java.util.List.of("jdk")) {
            NodeConfig chosen = new NodeConfig();
            tls(options -> options.sslProvider = provider).accept(chosen);
            assertThat(TlsContexts.server(chosen.clientEncryption, "client_encryption_options")).as("the context the node builds for %s", provider)
                    .isInstanceOf(provider.equals("openssl") ? OpenSslContext.class : JdkSslContext.class);
            try (TestNode node = TestNode.start("tls-" + provider, tls(options -> options.sslProvider = provider));
                 CqlSession session = node.sessionBuilder(o -> { }).withSslContext(ca.clientContext(null)).build()) {
                assertThat(session.execute("SELECT release_version FROM system.local").one()).as(provider).isNotNull();
            }
        }
    }

    @Test
    void plaintextDriverIsRefusedPromptlyByATlsOnlyNode() {
        try (TestNode node = TestNode.start("tls-only", tls(options -> { }))) {
            assertRefusedPromptly(() -> plaintextSession(node).close());
        }
    }

    @Test
    void plaintextBytesOnATlsOnlyPortGetTheConnectionClosed() throws Exception {
        try (TestNode node = TestNode.start("tls-only-raw", tls(options -> { }));
             Socket socket = new Socket()) {
            socket.connect(node.address(), 5_000);
            socket.setSoTimeout((int) PROMPTLY.toMillis()); // a hang fails the read with a timeout
            // An OPTIONS request of protocol v4: version, flags, stream 0, opcode 5, empty body.
            socket.getOutputStream().write(new byte[] {0x04, 0, 0, 0, 0x05, 0, 0, 0, 0});
            socket.getOutputStream().flush();
            byte[] answer = socket.getInputStream().readAllBytes(); // until the node closes the connection
            // Nothing, or a TLS alert (record type 21); never a CQL response (0x84).
            assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(), a -> assertThat(a[0]).isEqualTo((byte) 0x15));
        }
    }

    @Test
    void tlsDriverAgainstAPlaintextNodeFailsPromptly() {
        try (TestNode node = TestNode.start("plaintext", config -> config.nativeTransportAddress = "127.0.6.1")) {
            assertRefusedPromptly(() -> node.sessionBuilder(this::patientDriver).withSslContext(ca.clientContext(null)).build().close());
        }
    }

    @Test
    void optionalTlsServesPlaintextAndTlsClientsOnOnePort() {
        try (TestNode node = TestNode.start("tls-optional", tls(options -> options.optional = true));
             CqlSession plain = plaintextSession(node);
             CqlSession secure = node.sessionBuilder(o -> { }).withSslContext(ca.clientContext(null)).build()) {
            plain.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            plain.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            plain.execute("INSERT INTO ks.t (k, v) VALUES (1, 'plain')");
            assertThat(secure.execute("SELECT v FROM ks.t WHERE k = 1").one().getString("v")).isEqualTo("plain");
        }
    }

    @Test
    void requiredClientCertificateMustBeSignedByTheTruststoresCa() {
        Consumer<ballot.tls.ClientEncryptionOptions> requireCertificates = options -> {
            options.requireClientAuth = true;
            options.truststore = ca.truststore().toString();
            options.truststorePassword = TestCertificates.PASSWORD;
        };
        try (TestNode node = TestNode.start("tls-client-auth", tls(requireCertificates))) {
            assertRefusedPromptly(() -> node.sessionBuilder(this::patientDriver).withSslContext(ca.clientContext(null)).build().close());
            // A certificate from another CA; the client itself trusts the node's CA.
            SSLContext stranger = ca.clientContext(strangerKeystore);
            assertRefusedPromptly(() -> node.sessionBuilder(this::patientDriver).withSslContext(stranger).build().close());
            try (CqlSession session = node.sessionBuilder(o -> { }).withSslContext(ca.clientContext(clientKeystore)).build()) {
                assertThat(session.execute("SELECT release_version FROM system.local").one()).isNotNull();
            }
        }
    }

    @Test
    void acceptedProtocolsRefuseAClientOfferingOnlyOthers() {
        try (TestNode node = TestNode.start("tls-13", tls(options -> options.acceptedProtocols = java.util.List.of("TLSv1.3")))) {
            assertRefusedPromptly(() -> node.sessionBuilder(this::patientDriver)
                    .withSslContext(ca.clientContext(null, "TLSv1.2")).build().close());
            try (CqlSession session = node.sessionBuilder(o -> { }).withSslContext(ca.clientContext(null, "TLSv1.3")).build()) {
                assertThat(session.execute("SELECT release_version FROM system.local").one()).isNotNull();
            }
        }
    }

    @Test
    void badKeyStoreSettingsStopTheNodeNamingTheSetting() {
        assertThatThrownBy(() -> TestNode.start("tls-no-file", tls(options -> options.keystore = certificates.resolve("absent.p12").toString())))
                .hasMessageContaining("client_encryption_options.keystore: cannot read");
        assertThatThrownBy(() -> TestNode.start("tls-bad-password", tls(options -> options.keystorePassword = "wrong")))
                .hasMessageContaining("client_encryption_options.keystore_password does not open");
        assertThatThrownBy(() -> TestNode.start("tls-bad-protocol", tls(options -> options.acceptedProtocols = java.util.List.of("TLSv0.9"))))
                .hasMessageContaining("client_encryption_options.protocol, accepted_protocols or cipher_suites");
        assertThatThrownBy(() -> TestNode.start("tls-no-truststore", tls(options -> options.requireClientAuth = true)))
                .hasMessageContaining("client_encryption_options.truststore must be set");
        assertThatThrownBy(() -> TestNode.start("tls-bad-provider", tls(options -> options.sslProvider = "gnutls")))
                .hasMessageContaining("client_encryption_options.ssl_provider is 'gnutls'; must be auto, openssl or jdk");
    }

    /** Node settings with client TLS on, the node's key store, and {@code adjust} applied after. */
    private static Consumer<NodeConfig> tls(Consumer<ballot.tls.ClientEncryptionOptions> adjust) {
        return config -> {
            config.nativeTransportAddress = "127.0.6.1";
            config.clientEncryption.enabled = true;
            config.clientEncryption.keystore = nodeKeystore.toString();
            config.clientEncryption.keystorePassword = TestCertificates.PASSWORD;
            adjust.accept(config.clientEncryption);
        };
    }

    private CqlSession plaintextSession(TestNode node) {
        return node.sessionBuilder(this::patientDriver).build();
    }

    /** Driver timeouts far above {@link #PROMPTLY}, so that a refusal seen in time was not the driver giving up. */
    private void patientDriver(com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder options) {
        options.withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(30));
    }

    private static void assertRefusedPromptly(Runnable connect) {
        long start = System.nanoTime();
        assertThatThrownBy(connect::run).isInstanceOf(AllNodesFailedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
    }
}

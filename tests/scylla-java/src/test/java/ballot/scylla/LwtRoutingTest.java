package ballot.scylla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.metadata.EndPoint;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.ssl.SslEngineFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ScyllaDB's Java driver against the target (BALLOT_HOST:BALLOT_PORT, keyspace replication factor BALLOT_RF): it
 * negotiates SCYLLA_LWT_ADD_METADATA_MARK, reads the LWT bit of PREPARED, and sends every LWT on a partition to the
 * partition's first replica, where its Paxos rounds queue instead of contending (docs/architecture.md, "LWT routing").
 */
class LwtRoutingTest {
    private static final String HOST = System.getenv().getOrDefault("BALLOT_HOST", "127.0.0.1");
    private static final int PORT = Integer.parseInt(System.getenv().getOrDefault("BALLOT_PORT", "9042"));
    private static final int RF = Integer.parseInt(System.getenv().getOrDefault("BALLOT_RF", "1"));
    private static final String CONSISTENCY = System.getenv().getOrDefault("BALLOT_CONSISTENCY", "ONE").toUpperCase();
    private static final String KEYSPACE = "ballot_scylla_java_" + Long.toHexString(System.nanoTime());

    private static CqlSession session;

    @BeforeAll
    static void connect() {
        CqlSessionBuilder builder = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(HOST, PORT))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withString(DefaultDriverOption.REQUEST_CONSISTENCY, CONSISTENCY)
                        .build());
        // Secure mode (tests/run-secure-suites.sh): log in as BALLOT_USER, and speak TLS trusting the CA in BALLOT_TLS_CA.
        String user = System.getenv().getOrDefault("BALLOT_USER", "");
        if (!user.isEmpty()) builder.withAuthCredentials(user, System.getenv().getOrDefault("BALLOT_PASSWORD", ""));
        String ca = System.getenv().getOrDefault("BALLOT_TLS_CA", "");
        if (!ca.isEmpty()) builder.withSslEngineFactory(new AddressCheckingSslEngineFactory(trusting(Path.of(ca))));
        session = builder.build();
        session.execute("CREATE KEYSPACE " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + RF + "}");
        session.execute("CREATE TABLE " + KEYSPACE + ".kv (k int PRIMARY KEY, v int)");
        session.refreshSchema();
    }

    /**
     * TLS engines that check the node's certificate names the address connected to. The driver's own factories, asked
     * to validate host names, check the name a reverse DNS lookup gives (127.0.0.1 becomes localhost).
     */
    private record AddressCheckingSslEngineFactory(SSLContext context) implements SslEngineFactory {
        @Override
        public SSLEngine newSslEngine(EndPoint remote) {
            InetSocketAddress address = (InetSocketAddress) remote.resolve();
            SSLEngine engine = context.createSSLEngine(address.getAddress().getHostAddress(), address.getPort());
            engine.setUseClientMode(true);
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(parameters);
            return engine;
        }

        @Override
        public void close() {}
    }

    /** A TLS context that trusts only the CA certificate in the PEM file {@code caPem}. */
    private static SSLContext trusting(Path caPem) {
        try (InputStream in = Files.newInputStream(caPem)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("BALLOT_TLS_CA=" + caPem + ": cannot trust it as a PEM CA certificate: " + e, e);
        }
    }

    @AfterAll
    static void close() {
        if (session == null) return;
        session.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
        session.close();
    }

    @Test
    void conditionalStatementsArePreparedAsLwt() {
        for (String cql : List.of("INSERT INTO %s.kv (k, v) VALUES (?, ?) IF NOT EXISTS", "UPDATE %s.kv SET v = ? WHERE k = ? IF v = ?",
                "UPDATE %s.kv SET v = ? WHERE k = ? IF EXISTS", "DELETE FROM %s.kv WHERE k = ? IF EXISTS"))
            assertTrue(session.prepare(String.format(cql, KEYSPACE)).isLWT(), cql);
    }

    @Test
    void plainStatementsAreNot() {
        for (String cql : List.of("INSERT INTO %s.kv (k, v) VALUES (?, ?)", "UPDATE %s.kv SET v = ? WHERE k = ?",
                "SELECT v FROM %s.kv WHERE k = ?"))
            assertFalse(session.prepare(String.format(cql, KEYSPACE)).isLWT(), cql);
    }

    /** Needs several nodes: on one, every request goes to the only node whatever the driver does. */
    @Test
    void everyLwtGoesToTheFirstReplicaOfItsPartition() {
        assumeTrue(session.getMetadata().getNodes().size() > 1, "one node: routing cannot be observed");
        PreparedStatement insert = session.prepare("INSERT INTO " + KEYSPACE + ".kv (k, v) VALUES (?, ?) IF NOT EXISTS");
        Set<Node> coordinators = new HashSet<>();
        for (int k = 0; k < 30; k++) {
            BoundStatement bound = insert.bind(k, k);
            Set<Node> replicas = session.getMetadata().getTokenMap().orElseThrow()
                    .getReplicas(KEYSPACE, bound.getRoutingKey());
            assertEquals(RF, replicas.size(), "replicas of k=" + k);
            Node first = replicas.iterator().next();
            for (int attempt = 0; attempt < 3; attempt++) {
                ResultSet result = session.execute(bound);
                assertEquals(attempt == 0, result.wasApplied(), "k=" + k + " attempt " + attempt);
                assertEquals(first, result.getExecutionInfo().getCoordinator(), "k=" + k + " attempt " + attempt);
            }
            coordinators.add(first);
        }
        assertTrue(coordinators.size() > 1, "the first replicas of 30 partitions are not all one node: " + coordinators);
    }
}

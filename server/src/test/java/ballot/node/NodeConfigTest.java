package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.metrics.MetricsAuthentication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings from YAML and from the command line, and the messages naming a bad one. */
class NodeConfigTest {
    @TempDir
    Path directory;

    private NodeConfig load(String yaml) throws IOException {
        Path file = directory.resolve("node.yaml");
        Files.writeString(file, yaml);
        return NodeConfig.load(file);
    }

    /** system_views.settings: every setting by its YAML name, defaults included, nested ones dotted, passwords hidden. */
    @Test
    void settingsNameEverySettingAsInYamlAndHidePasswords() throws IOException {
        NodeConfig config = load("""
                cluster_name: "Settings"
                seeds: ["127.0.0.1:7000", "127.0.0.2:7000"]
                metrics_authentication: basic
                metrics_username: operator
                metrics_password: s3cret
                client_encryption_options:
                  enabled: true
                  keystore: /keys/node.p12
                  keystore_password: changeit
                """);
        java.util.Map<String, String> settings = config.settings();
        assertThat(settings).containsEntry("cluster_name", "Settings").containsEntry("native_transport_port", "9042")
                .containsEntry("seeds", "[127.0.0.1:7000, 127.0.0.2:7000]").containsEntry("metrics_password", "<hidden>")
                .containsEntry("client_encryption_options.enabled", "true")
                .containsEntry("client_encryption_options.keystore", "/keys/node.p12")
                .containsEntry("client_encryption_options.keystore_password", "<hidden>")
                .containsEntry("client_encryption_options.truststore_password", null);
        assertThat(settings.values()).doesNotContain("s3cret", "changeit");
    }

    @Test
    void metricsPortDefaultsToScyllasPrometheusPortAndIsReadFromYaml() throws IOException {
        assertThat(new NodeConfig().metricsPort).isEqualTo(9180);
        assertThat(load("metrics_port: 19180\n").metricsPort).isEqualTo(19180);
        assertThat(load("metrics_port: 0\n").metricsPort).isZero();
    }

    @Test
    void authenticatorIsAllowAllByDefaultAndAcceptsCassandrasNames() throws IOException {
        assertThat(new NodeConfig().requiresPasswords()).isFalse();
        assertThat(load("authenticator: PasswordAuthenticator\n").requiresPasswords()).isTrue();
        assertThat(load("authenticator: org.apache.cassandra.auth.PasswordAuthenticator\n").requiresPasswords()).isTrue();
        assertThat(load("authenticator: org.apache.cassandra.auth.AllowAllAuthenticator\n").requiresPasswords()).isFalse();
        assertThatThrownBy(() -> load("authenticator: LdapAuthenticator\n"))
                .hasMessage("authenticator must be 'AllowAllAuthenticator' or 'PasswordAuthenticator', was 'LdapAuthenticator'");
        assertThat(new NodeConfig().rolesValidityMillis).isEqualTo(2000);
        assertThatThrownBy(() -> load("roles_validity_in_ms: -1\n")).hasMessage("roles_validity_in_ms must not be negative, was -1");
    }

    @Test
    void authorizerIsAllowAllByDefaultAndCassandraAuthorizerNeedsPasswords() throws IOException {
        assertThat(new NodeConfig().requiresAuthorization()).isFalse();
        String passwords = "authenticator: PasswordAuthenticator\n";
        assertThat(load(passwords + "authorizer: CassandraAuthorizer\n").requiresAuthorization()).isTrue();
        assertThat(load(passwords + "authorizer: org.apache.cassandra.auth.CassandraAuthorizer\n").requiresAuthorization()).isTrue();
        assertThat(load("authorizer: org.apache.cassandra.auth.AllowAllAuthorizer\n").requiresAuthorization()).isFalse();
        assertThatThrownBy(() -> load(passwords + "authorizer: LdapAuthorizer\n"))
                .hasMessage("authorizer must be 'AllowAllAuthorizer' or 'CassandraAuthorizer', was 'LdapAuthorizer'");
        assertThatThrownBy(() -> load("authorizer: CassandraAuthorizer\n")).hasMessageStartingWith(
                "authorizer CassandraAuthorizer needs authenticator: PasswordAuthenticator (with AllowAllAuthenticator every client is anonymous");
        assertThat(new NodeConfig().permissionsValidityMillis).isEqualTo(2000);
        assertThatThrownBy(() -> load("permissions_validity_in_ms: -1\n")).hasMessage("permissions_validity_in_ms must not be negative, was -1");
    }

    @Test
    void rejectsAMetricsPortOutOfRangeNamingTheSetting() {
        assertThatThrownBy(() -> load("metrics_port: 65536\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics_port must be in [0, 65535] (0: no metrics endpoint), was 65536");
    }

    @Test
    void paxosSyncIsAlwaysUnlessSetToFollowTheCommitLog() throws IOException {
        assertThat(new NodeConfig().paxosSync).isEqualTo("always");
        assertThat(new NodeConfig().syncsPaxosVotes()).isTrue();
        assertThat(load("paxos_sync: commitlog\n").syncsPaxosVotes()).isFalse();
        assertThat(load("paxos_sync: commitlog\ncommitlog_sync: batch\n").syncsPaxosVotes()).as("every write is synced").isTrue();
        assertThatThrownBy(() -> load("paxos_sync: never\n")).hasMessage("paxos_sync must be 'always' or 'commitlog', was 'never'");
    }

    @Test
    void tracingSettingsAreCheckedNamingTheSetting() throws IOException {
        assertThatThrownBy(() -> load("trace_probability: 1.5\n"))
                .hasMessage("trace_probability must be between 0 and 1, was 1.5");
        assertThatThrownBy(() -> load("tracetype_query_ttl: 0\n")).hasMessage("tracetype_query_ttl must be positive, was 0");
        assertThat(load("admin_changes_from_any_address: true\n").adminChangesFromAnyAddress).isTrue();
        assertThat(new NodeConfig().adminChangesFromAnyAddress).isFalse();
    }

    @Test
    void resultMemorySettingsAreCheckedNamingTheSetting() throws IOException {
        assertThat(load("native_transport_max_result_data_in_flight_in_mb: 64\n").resultDataInFlightMb).isEqualTo(64);
        assertThatThrownBy(() -> load("native_transport_max_result_data_in_flight_in_mb: 0\n"))
                .hasMessageContaining("native_transport_max_result_data_in_flight_in_mb");
        assertThatThrownBy(() -> load("native_transport_max_result_data_in_flight_in_mb: 64\n"
                + "native_transport_max_result_data_per_connection_in_mb: 128\n"))
                .hasMessage("native_transport_max_result_data_per_connection_in_mb (128) must not exceed "
                        + "native_transport_max_result_data_in_flight_in_mb (64)");
    }

    @Test
    void partialFrameSettingsAreCheckedNamingTheSetting() throws IOException {
        assertThat(load("native_transport_frame_assembly_timeout_in_ms: 5000\n").frameAssemblyTimeoutMillis).isEqualTo(5000);
        assertThatThrownBy(() -> load("native_transport_frame_assembly_timeout_in_ms: 0\n"))
                .hasMessage("native_transport_frame_assembly_timeout_in_ms must be positive, was 0");
        assertThatThrownBy(() -> load("native_transport_max_partial_frame_data_in_mb: 0\n"))
                .hasMessageContaining("native_transport_max_partial_frame_data_in_mb");
    }

    @Test
    void commandLineSetsTheMetricsPort() {
        assertThat(Main.parse(new String[] {"--metrics-port", "0"}).metricsPort).isZero();
        assertThatThrownBy(() -> Main.parse(new String[] {"--metrics-port", "x"}))
                .hasMessage("--metrics-port must be a number, was 'x'");
    }

    @Test
    void metricsProtectionIsOffByDefaultAndReadFromYaml() throws IOException {
        NodeConfig defaults = new NodeConfig();
        assertThat(defaults.metricsAddress).isNull();
        assertThat(defaults.metricsAuthentication().kind()).isEqualTo(MetricsAuthentication.Kind.NONE);
        assertThat(defaults.metricsTls()).isNull();

        Path password = directory.resolve("password");
        Files.writeString(password, "s3cret\n");
        NodeConfig basic = load("metrics_address: 127.0.7.1\nmetrics_authentication: basic\nmetrics_username: prometheus\n"
                + "metrics_password_file: " + password + "\nmetrics_encryption_options:\n  store_type: JKS\n");
        assertThat(basic.metricsAddress).isEqualTo("127.0.7.1");
        assertThat(basic.metricsEncryption.storeType).isEqualTo("JKS");
        String credentials = Base64.getEncoder().encodeToString("prometheus:s3cret".getBytes(StandardCharsets.UTF_8));
        assertThat(basic.metricsAuthentication().admits("Basic " + credentials)).isTrue();
        assertThat(basic.metricsAuthentication().admits("Basic " + credentials.substring(1))).isFalse();

        MetricsAuthentication bearer = load("metrics_authentication: bearer\nmetrics_bearer_token: t0ken\n").metricsAuthentication();
        assertThat(bearer.admits("Bearer t0ken")).isTrue();
        assertThat(bearer.admits("Bearer t0ke")).isFalse();
        assertThat(bearer.admits(null)).isFalse();
    }

    @Test
    void metricsProtectionSettingsAreCheckedNamingTheSetting() {
        assertThatThrownBy(() -> load("metrics_authentication: digest\n"))
                .hasMessage("metrics_authentication must be 'none', 'basic' or 'bearer', was 'digest'");
        assertThatThrownBy(() -> load("metrics_authentication: basic\nmetrics_username: prometheus\n"))
                .hasMessage("metrics_authentication: basic needs exactly one of metrics_password and metrics_password_file");
        assertThatThrownBy(() -> load("metrics_authentication: basic\nmetrics_password: x\n"))
                .hasMessage("metrics_authentication: basic needs metrics_username (not empty, no ':')");
        assertThatThrownBy(() -> load("metrics_authentication: bearer\n"))
                .hasMessage("metrics_authentication: bearer needs exactly one of metrics_bearer_token and metrics_bearer_token_file");
        assertThatThrownBy(() -> load("metrics_bearer_token: t0ken\n"))
                .hasMessage("metrics_bearer_token and metrics_bearer_token_file need metrics_authentication: bearer, was none");
        assertThatThrownBy(() -> load("metrics_encryption_options:\n  enabled: true\n"))
                .hasMessage("metrics_encryption_options.enabled needs metrics_encryption_options.keystore and keystore_password");
        assertThatThrownBy(() -> load("metrics_encryption_options:\n  store_type: PEM\n"))
                .hasMessage("metrics_encryption_options.store_type must be 'PKCS12' or 'JKS', was 'PEM'");
        assertThatThrownBy(() -> load("metrics_authentication: bearer\nmetrics_bearer_token_file: " + directory.resolve("absent") + "\n")
                .metricsAuthentication()).hasMessageStartingWith("metrics_bearer_token_file " + directory.resolve("absent") + ": cannot read it");
    }

    @Test
    void encryptionOptionsAreReadWithCassandrasKeys() throws IOException {
        NodeConfig config = load("""
                client_encryption_options:
                  enabled: true
                  optional: true
                  keystore: conf/node.p12
                  keystore_password: secret
                  truststore: conf/truststore.p12
                  truststore_password: trust
                  require_client_auth: true
                  protocol: TLS
                  accepted_protocols: [TLSv1.2, TLSv1.3]
                  cipher_suites: [TLS_AES_128_GCM_SHA256]
                  store_type: PKCS12
                server_encryption_options:
                  internode_encryption: all
                  keystore: conf/node.p12
                  keystore_password: secret
                  truststore: conf/truststore.p12
                  truststore_password: trust
                  require_client_auth: true
                """);
        assertThat(config.clientEncryption.enabled).isTrue();
        assertThat(config.clientEncryption.optional).isTrue();
        assertThat(config.clientEncryption.keystore).isEqualTo("conf/node.p12");
        assertThat(config.clientEncryption.requireClientAuth).isTrue();
        assertThat(config.clientEncryption.acceptedProtocols).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(config.clientEncryption.cipherSuites).containsExactly("TLS_AES_128_GCM_SHA256");
        assertThat(config.serverEncryption.enabled()).isTrue();
        assertThat(config.serverEncryption.truststorePassword).isEqualTo("trust");
        assertThat(new NodeConfig().clientEncryption.enabled).isFalse();
        assertThat(new NodeConfig().serverEncryption.enabled()).isFalse();
    }

    @Test
    void internodeEncryptionOtherThanNoneOrAllIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> load("server_encryption_options:\n  internode_encryption: dc\n"))
                .hasMessage("server_encryption_options.internode_encryption must be 'none' or 'all', was 'dc' "
                        + "(Ballot does not build Cassandra's 'dc' and 'rack')");
        assertThatThrownBy(() -> load("client_encryption_options:\n  enable: true\n")).hasMessageContaining("\"enable\"");
    }
}

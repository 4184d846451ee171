package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void rejectsAMetricsPortOutOfRangeNamingTheSetting() {
        assertThatThrownBy(() -> load("metrics_port: 65536\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics_port must be in [0, 65535] (0: no metrics endpoint), was 65536");
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
}

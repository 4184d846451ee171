package ballot.node;

import ballot.cql.trace.Tracer;
import ballot.metrics.MetricsAuthentication;
import ballot.metrics.MetricsTls;
import ballot.tls.ClientEncryptionOptions;
import ballot.tls.ServerEncryptionOptions;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

/**
 * Node settings, read from a YAML file whose keys follow cassandra.yaml where a setting exists there. Every setting
 * has a default, so a node runs with no file at all: one node on 127.0.0.1, CQL on port 9042, data in ./data.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public final class NodeConfig {
    private static final String CASSANDRA_AUTH = "org.apache.cassandra.auth.";
    @JsonProperty("cluster_name") public String clusterName = "Test Cluster";
    @JsonProperty("listen_address") public String listenAddress = "127.0.0.1";
    @JsonProperty("storage_port") public int storagePort = 7000;
    /** Internode addresses (host or host:port) of nodes to contact when joining; empty: a cluster of one. */
    @JsonProperty("seeds") public java.util.List<String> seeds = new java.util.ArrayList<>();
    @JsonProperty("phi_convict_threshold") public double phiConvictThreshold = 8.0;
    @JsonProperty("write_request_timeout_in_ms") public long writeTimeoutMillis = 2000;
    @JsonProperty("read_request_timeout_in_ms") public long readTimeoutMillis = 5000;
    @JsonProperty("range_request_timeout_in_ms") public long rangeTimeoutMillis = 10000;
    @JsonProperty("cas_contention_timeout_in_ms") public long casContentionTimeoutMillis = 1000;
    /** How long a partition's Paxos registers outlive its last step before they are purged (docs/paxos.md §4.13). */
    @JsonProperty("paxos_purge_grace_period_in_seconds") public long paxosPurgeGraceSeconds = 60;
    @JsonProperty("native_transport_address") public String nativeTransportAddress = "127.0.0.1";
    @JsonProperty("native_transport_port") public int nativeTransportPort = 9042;
    @JsonProperty("native_transport_max_frame_size_in_mb") public int frameSizeMb = 16;
    /** Port of the Prometheus endpoint (GET /metrics) on native_transport_address; 0 turns it off. 9180 as in ScyllaDB. */
    @JsonProperty("metrics_port") public int metricsPort = 9180;
    /**
     * Address of the metrics port (metrics, console, admin calls); unset: native_transport_address, except that a
     * wildcard there (0.0.0.0, ::) keeps the port on 127.0.0.1 (docs/metrics.md, "Protecting the endpoint").
     */
    @JsonProperty("metrics_address") public String metricsAddress = null;
    /** none, basic (metrics_username and metrics_password[_file]) or bearer (metrics_bearer_token[_file]). */
    @JsonProperty("metrics_authentication") public String metricsAuthentication = "none";
    @JsonProperty("metrics_username") public String metricsUsername = null;
    @JsonProperty("metrics_password") public String metricsPassword = null;
    /** A file holding the password (trailing whitespace, such as the last newline, is not part of it), instead of metrics_password. */
    @JsonProperty("metrics_password_file") public String metricsPasswordFile = null;
    @JsonProperty("metrics_bearer_token") public String metricsBearerToken = null;
    /** A file holding the token, instead of metrics_bearer_token. */
    @JsonProperty("metrics_bearer_token_file") public String metricsBearerTokenFile = null;
    /** HTTPS on the metrics port, as Cassandra's client_encryption_options. */
    @JsonProperty("metrics_encryption_options") public EncryptionOptions metricsEncryption = new EncryptionOptions();
    @JsonProperty("data_file_directory") public String dataDirectory = "data";
    @JsonProperty("commitlog_sync") public String commitlogSync = "periodic";
    @JsonProperty("commitlog_sync_period_in_ms") public long commitlogSyncPeriodMillis = 10_000;
    /**
     * When Paxos votes reach the disk (docs/paxos.md §4.15): {@code always}, synced before their reply, or
     * {@code commitlog}, written to the log before their reply and synced with it, as Cassandra's are. Under
     * {@code commitlog_sync: batch} every write is synced, so both are {@code always}.
     */
    @JsonProperty("paxos_sync") public String paxosSync = "always";
    @JsonProperty("num_tokens") public int numTokens = 16;
    @JsonProperty("datacenter") public String dataCenter = "datacenter1";
    @JsonProperty("rack") public String rack = "rack1";
    @JsonProperty("prepared_statements_cache_entries") public long preparedStatementsCacheEntries = 10_000;
    @JsonProperty("block_cache_size_in_mb") public long blockCacheMb = 128;
    @JsonProperty("sweep_period_in_s") public long sweepPeriodSeconds = 3600;
    /** The fraction of requests traced without the client asking (Cassandra's nodetool settraceprobability). */
    @JsonProperty("trace_probability") public double traceProbability = 0;
    /** Seconds a trace (system_traces rows) is kept. */
    @JsonProperty("tracetype_query_ttl") public int traceTtlSeconds = 86_400;
    /**
     * Whether the metrics port takes state-changing admin calls (POST /storage_service/trace_probability) from any
     * client address; by default only from loopback, since the port may have no authentication (metrics_authentication).
     */
    @JsonProperty("admin_changes_from_any_address") public boolean adminChangesFromAnyAddress = false;
    /** -1: what the process's file descriptor limit leaves after a quarter of it (at least 1,024, at most half) for storage and peers. */
    @JsonProperty("native_transport_max_concurrent_connections") public int maxConnections = -1;
    @JsonProperty("native_transport_max_concurrent_connections_per_ip") public int maxConnectionsPerIp = -1;
    @JsonProperty("batch_size_warn_threshold_in_kb") public long batchSizeWarnKb = 5;
    @JsonProperty("batch_size_fail_threshold_in_kb") public long batchSizeFailKb = 50;
    /**
     * Megabytes of query results (rows gathered, responses not yet written) the node holds at once for its clients;
     * -1: a quarter of the heap. A query whose rows do not fit now is answered OVERLOADED.
     */
    @JsonProperty("native_transport_max_result_data_in_flight_in_mb") public int resultDataInFlightMb = -1;
    /** The same for one connection; -1: half the node's. A result larger than this alone is refused as invalid. */
    @JsonProperty("native_transport_max_result_data_per_connection_in_mb") public int resultDataPerConnectionMb = -1;
    /** Megabytes all client connections may hold in frames begun and not finished; -1: a quarter of the direct memory, at least 64. */
    @JsonProperty("native_transport_max_partial_frame_data_in_mb") public int partialFrameDataMb = -1;
    /** How long a client connection may hold an incomplete frame without completing any before it is closed. */
    @JsonProperty("native_transport_frame_assembly_timeout_in_ms") public long frameAssemblyTimeoutMillis = 30_000;
    @JsonProperty("request_threads") public int requestThreads = Math.max(8, Runtime.getRuntime().availableProcessors() * 4);
    /** Admission control of client requests (docs/admission.md); off, every request is started at once. */
    @JsonProperty("admission_enabled") public boolean admissionEnabled = true;
    /**
     * A client request that has waited this long for admission is refused OVERLOADED rather than started: by then its
     * client (the Java driver waits 2 s by default) may be about to give up, and a retry on another node may do better.
     */
    @JsonProperty("admission_max_wait_in_ms") public long admissionMaxWaitMillis = 1000;
    /** At most this many client requests wait for admission; the next is refused OVERLOADED. */
    @JsonProperty("admission_queue_max") public int admissionQueueMax = 10_000;
    /** Above this wait of admitted requests for a request thread, admission slots shrink. */
    @JsonProperty("admission_executor_delay_target_in_ms") public long admissionExecutorDelayTargetMillis = 5;
    /** Above this queue delay a priority's admission queue turns epoch-LIFO. */
    @JsonProperty("admission_lifo_threshold_in_ms") public long admissionLifoThresholdMillis = 105;
    /**
     * At most this many conditional statements wait for one partition on a coordinator; the next is refused OVERLOADED.
     * Eight rounds of 32: a client's usual hundred in flight on one key all wait their turn, as on Cassandra.
     */
    @JsonProperty("admission_partition_lwt_queue_max") public int admissionPartitionLwtQueueMax = 256;
    /** Keyspaces whose requests are admitted at background priority: after every other request waiting (bulk loads). */
    @JsonProperty("admission_background_keyspaces") public java.util.List<String> admissionBackgroundKeyspaces = new java.util.ArrayList<>();
    /** The width of an epoch of epoch-LIFO. */
    @JsonProperty("admission_epoch_in_ms") public long admissionEpochMillis = 100;

    /** TLS settings under the names of Cassandra's *_encryption_options. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public static final class EncryptionOptions {
        @JsonProperty("enabled") public boolean enabled = false;
        @JsonProperty("keystore") public String keystore = null;
        @JsonProperty("keystore_password") public String keystorePassword = null;
        /** The certificates peers must present; unset: those in the keystore. */
        @JsonProperty("truststore") public String truststore = null;
        @JsonProperty("truststore_password") public String truststorePassword = null;
        /** PKCS12 or JKS, for both stores. */
        @JsonProperty("store_type") public String storeType = "PKCS12";
    }
    /** TLS on the CQL port (docs/tls.md). */
    @JsonProperty("client_encryption_options") public ClientEncryptionOptions clientEncryption = new ClientEncryptionOptions();
    /** TLS between nodes (docs/tls.md). */
    @JsonProperty("server_encryption_options") public ServerEncryptionOptions serverEncryption = new ServerEncryptionOptions();
    /**
     * Who may connect: AllowAllAuthenticator (everyone, the default) or PasswordAuthenticator (a role and its password,
     * docs/security.md); Cassandra's fully qualified class names are accepted too.
     */
    @JsonProperty("authenticator") public String authenticator = "AllowAllAuthenticator";
    /** How long a node uses a role it has read for logins before reading it again; 0: read at every login. */
    @JsonProperty("roles_validity_in_ms") public long rolesValidityMillis = 2000;
    /**
     * What a logged-in role may do: AllowAllAuthorizer (everything, the default) or CassandraAuthorizer (what it was
     * granted, docs/security.md), which needs PasswordAuthenticator; Cassandra's fully qualified class names too.
     */
    @JsonProperty("authorizer") public String authorizer = "AllowAllAuthorizer";
    /** How long a node uses a role's permissions it has read before reading them again; 0: read at every statement. */
    @JsonProperty("permissions_validity_in_ms") public long permissionsValidityMillis = 2000;

    /** Reads {@code file}; unknown keys are an error that names the key. */
    public static NodeConfig load(Path file) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        try {
            NodeConfig config = yaml.readValue(Files.readAllBytes(file), NodeConfig.class);
            config.validate();
            return config;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read configuration " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every setting under its YAML name with the value this node runs with (defaults included), as
     * {@code system_views.settings} shows them: a nested option as {@code parent.name}, a list as {@code [a, b]}, unset
     * as null, and a password's value hidden.
     */
    public java.util.SortedMap<String, String> settings() {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        flatten("", new ObjectMapper().valueToTree(this), out);
        return out;
    }

    private static void flatten(String prefix, com.fasterxml.jackson.databind.JsonNode node, java.util.Map<String, String> out) {
        node.fields().forEachRemaining(field -> {
            String name = prefix + field.getKey();
            com.fasterxml.jackson.databind.JsonNode value = field.getValue();
            if (value.isObject()) {
                flatten(name + ".", value, out);
            } else if (value.isNull()) {
                out.put(name, null);
            } else if (name.endsWith("password")) {
                out.put(name, "<hidden>");
            } else if (value.isArray()) {
                java.util.List<String> elements = new java.util.ArrayList<>();
                value.forEach(e -> elements.add(e.asText()));
                out.put(name, elements.toString());
            } else {
                out.put(name, value.asText());
            }
        });
    }

    /** Whether Paxos votes are synced before their reply: {@code paxos_sync: always}, or every write synced anyway. */
    public boolean syncsPaxosVotes() {
        return paxosSync.equals("always") || commitlogSync.equals("batch");
    }

    /** Checks values that have a fixed set of choices or a range; the message names the setting. */
    public void validate() {
        if (!commitlogSync.equals("periodic") && !commitlogSync.equals("batch")) {
            throw new IllegalArgumentException("commitlog_sync must be 'periodic' or 'batch', was '" + commitlogSync + "'");
        }
        if (!paxosSync.equals("always") && !paxosSync.equals("commitlog")) {
            throw new IllegalArgumentException("paxos_sync must be 'always' or 'commitlog', was '" + paxosSync + "'");
        }
        if (commitlogSyncPeriodMillis < 1) throw new IllegalArgumentException("commitlog_sync_period_in_ms must be positive, was " + commitlogSyncPeriodMillis);
        if (numTokens < 1 || numTokens > 1024) throw new IllegalArgumentException("num_tokens must be in [1, 1024], was " + numTokens);
        if (frameSizeMb < 1 || frameSizeMb > 256) throw new IllegalArgumentException("native_transport_max_frame_size_in_mb must be in [1, 256], was " + frameSizeMb);
        if (nativeTransportPort < 0 || nativeTransportPort > 65535) throw new IllegalArgumentException("native_transport_port must be in [0, 65535], was " + nativeTransportPort);
        if (metricsPort < 0 || metricsPort > 65535) throw new IllegalArgumentException("metrics_port must be in [0, 65535] (0: no metrics endpoint), was " + metricsPort);
        if (phiConvictThreshold < 1) throw new IllegalArgumentException("phi_convict_threshold must be at least 1, was " + phiConvictThreshold);
        if (writeTimeoutMillis < 1 || readTimeoutMillis < 1 || rangeTimeoutMillis < 1 || casContentionTimeoutMillis < 1) {
            throw new IllegalArgumentException("request timeouts must be positive");
        }
        Tracer.checkProbability(traceProbability);
        if (traceTtlSeconds < 1) throw new IllegalArgumentException("tracetype_query_ttl must be positive, was " + traceTtlSeconds);
        if (paxosPurgeGraceSeconds < 1) throw new IllegalArgumentException("paxos_purge_grace_period_in_seconds must be positive, was " + paxosPurgeGraceSeconds);
        if (requestThreads < 1) throw new IllegalArgumentException("request_threads must be positive, was " + requestThreads);
        if (resultDataInFlightMb == 0 || resultDataInFlightMb < -1 || resultDataPerConnectionMb == 0 || resultDataPerConnectionMb < -1)
            throw new IllegalArgumentException("native_transport_max_result_data_in_flight_in_mb and "
                    + "native_transport_max_result_data_per_connection_in_mb must be positive (or -1 for the default)");
        if (resultDataInFlightMb > 0 && resultDataPerConnectionMb > resultDataInFlightMb)
            throw new IllegalArgumentException("native_transport_max_result_data_per_connection_in_mb (" + resultDataPerConnectionMb
                    + ") must not exceed native_transport_max_result_data_in_flight_in_mb (" + resultDataInFlightMb + ")");
        if (partialFrameDataMb == 0 || partialFrameDataMb < -1)
            throw new IllegalArgumentException("native_transport_max_partial_frame_data_in_mb must be positive (or -1 for the default), was "
                    + partialFrameDataMb);
        if (frameAssemblyTimeoutMillis < 1)
            throw new IllegalArgumentException("native_transport_frame_assembly_timeout_in_ms must be positive, was " + frameAssemblyTimeoutMillis);
        serverEncryption.validate();
        requiresPasswords(); // names a bad authenticator
        if (rolesValidityMillis < 0) throw new IllegalArgumentException("roles_validity_in_ms must not be negative, was " + rolesValidityMillis);
        requiresAuthorization(); // names a bad authorizer, or one the authenticator cannot serve
        if (permissionsValidityMillis < 0)
            throw new IllegalArgumentException("permissions_validity_in_ms must not be negative, was " + permissionsValidityMillis);
        admissionSettings(); // names a bad admission setting
        if (admissionMaxWaitMillis < 1) throw new IllegalArgumentException("admission_max_wait_in_ms must be positive, was " + admissionMaxWaitMillis);
        validateMetricsProtection();
        if (batchSizeWarnKb < 0 || batchSizeFailKb < batchSizeWarnKb) {
            throw new IllegalArgumentException("batch_size_fail_threshold_in_kb (" + batchSizeFailKb + ") must be at least "
                    + "batch_size_warn_threshold_in_kb (" + batchSizeWarnKb + "), which must not be negative");
        }
    }

    private void validateMetricsProtection() {
        MetricsAuthentication.Kind kind = metricsAuthenticationKind();
        boolean basicSecret = metricsUsername != null || metricsPassword != null || metricsPasswordFile != null;
        boolean bearerSecret = metricsBearerToken != null || metricsBearerTokenFile != null;
        if (kind != MetricsAuthentication.Kind.BASIC && basicSecret)
            throw new IllegalArgumentException("metrics_username, metrics_password and metrics_password_file need metrics_authentication: basic, was "
                    + metricsAuthentication);
        if (kind != MetricsAuthentication.Kind.BEARER && bearerSecret)
            throw new IllegalArgumentException("metrics_bearer_token and metrics_bearer_token_file need metrics_authentication: bearer, was "
                    + metricsAuthentication);
        if (kind == MetricsAuthentication.Kind.BASIC) {
            if (metricsUsername == null || metricsUsername.isEmpty() || metricsUsername.contains(":"))
                throw new IllegalArgumentException("metrics_authentication: basic needs metrics_username (not empty, no ':')");
            oneOf(metricsPassword, metricsPasswordFile, "metrics_authentication: basic needs exactly one of metrics_password and metrics_password_file");
        }
        if (kind == MetricsAuthentication.Kind.BEARER)
            oneOf(metricsBearerToken, metricsBearerTokenFile, "metrics_authentication: bearer needs exactly one of metrics_bearer_token and metrics_bearer_token_file");
        if (!metricsEncryption.storeType.equals("PKCS12") && !metricsEncryption.storeType.equals("JKS"))
            throw new IllegalArgumentException("metrics_encryption_options.store_type must be 'PKCS12' or 'JKS', was '" + metricsEncryption.storeType + "'");
        if (metricsEncryption.enabled && (metricsEncryption.keystore == null || metricsEncryption.keystorePassword == null))
            throw new IllegalArgumentException("metrics_encryption_options.enabled needs metrics_encryption_options.keystore and keystore_password");
    }

    private static void oneOf(String value, String file, String message) {
        if ((value == null) == (file == null) || (value != null && value.isEmpty())) throw new IllegalArgumentException(message);
    }

    private MetricsAuthentication.Kind metricsAuthenticationKind() {
        return switch (metricsAuthentication) {
            case "none" -> MetricsAuthentication.Kind.NONE;
            case "basic" -> MetricsAuthentication.Kind.BASIC;
            case "bearer" -> MetricsAuthentication.Kind.BEARER;
            default -> throw new IllegalArgumentException("metrics_authentication must be 'none', 'basic' or 'bearer', was '" + metricsAuthentication + "'");
        };
    }

    /** The metrics port's authentication, with the secrets read from their files where the settings name files. */
    MetricsAuthentication metricsAuthentication() {
        return switch (metricsAuthenticationKind()) {
            case NONE -> MetricsAuthentication.none();
            case BASIC -> MetricsAuthentication.basic(metricsUsername,
                    metricsPassword != null ? metricsPassword : secretFile(metricsPasswordFile, "metrics_password_file"));
            case BEARER -> MetricsAuthentication.bearer(
                    metricsBearerToken != null ? metricsBearerToken : secretFile(metricsBearerTokenFile, "metrics_bearer_token_file"));
        };
    }

    /** The metrics port's TLS context; null when metrics_encryption_options is not enabled. */
    SSLContext metricsTls() {
        if (!metricsEncryption.enabled) return null;
        EncryptionOptions tls = metricsEncryption;
        return MetricsTls.context(new MetricsTls.StoreFile(Path.of(tls.keystore), tls.keystorePassword, tls.storeType),
                tls.truststore == null ? null : new MetricsTls.StoreFile(Path.of(tls.truststore), tls.truststorePassword, tls.storeType));
    }

    private static String secretFile(String file, String setting) {
        try {
            String secret = Files.readString(Path.of(file)).stripTrailing();
            if (secret.isEmpty()) throw new IllegalArgumentException(setting + " " + file + " is empty");
            return secret;
        } catch (IOException e) {
            throw new IllegalArgumentException(setting + " " + file + ": cannot read it: " + e, e);
        }
    }

    /**
     * True for CassandraAuthorizer, false for AllowAllAuthorizer; any other {@code authorizer} is refused, and so is
     * CassandraAuthorizer without PasswordAuthenticator (its clients are anonymous), as Cassandra refuses it.
     */
    boolean requiresAuthorization() {
        String name = authorizer.startsWith(CASSANDRA_AUTH) ? authorizer.substring(CASSANDRA_AUTH.length()) : authorizer;
        boolean checked = switch (name) {
            case "CassandraAuthorizer" -> true;
            case "AllowAllAuthorizer" -> false;
            default -> throw new IllegalArgumentException("authorizer must be 'AllowAllAuthorizer' or 'CassandraAuthorizer', was '"
                    + authorizer + "'");
        };
        if (checked && !requiresPasswords())
            throw new IllegalArgumentException("authorizer " + authorizer + " needs authenticator: PasswordAuthenticator (with "
                    + authenticator + " every client is anonymous, so there is no role to grant permissions to)");
        return checked;
    }

    /** True for PasswordAuthenticator, false for AllowAllAuthenticator; any other {@code authenticator} is refused. */
    boolean requiresPasswords() {
        String name = authenticator.startsWith(CASSANDRA_AUTH) ? authenticator.substring(CASSANDRA_AUTH.length()) : authenticator;
        return switch (name) {
            case "PasswordAuthenticator" -> true;
            case "AllowAllAuthenticator" -> false;
            default -> throw new IllegalArgumentException("authenticator must be 'AllowAllAuthenticator' or 'PasswordAuthenticator', was '"
                    + authenticator + "'");
        };
    }

    /** The admission settings: slots from the request threads, the rest from the admission_* keys. */
    ballot.admission.AdmissionSettings admissionSettings() {
        return ballot.admission.AdmissionSettings.forRequestThreads(requestThreads, admissionQueueMax,
                java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(admissionExecutorDelayTargetMillis),
                java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(admissionLifoThresholdMillis),
                java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(admissionEpochMillis));
    }
}

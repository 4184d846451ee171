package ballot.node;

import ballot.cql.trace.Tracer;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
    @JsonProperty("data_file_directory") public String dataDirectory = "data";
    @JsonProperty("commitlog_sync") public String commitlogSync = "periodic";
    @JsonProperty("commitlog_sync_period_in_ms") public long commitlogSyncPeriodMillis = 10_000;
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
     * client address; by default only from loopback, since the port has no authentication.
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
    /** At most this many conditional statements wait for one partition on a coordinator; the next is refused OVERLOADED. */
    @JsonProperty("admission_partition_lwt_queue_max") public int admissionPartitionLwtQueueMax = 32;
    /** Keyspaces whose requests are admitted at background priority: after every other request waiting (bulk loads). */
    @JsonProperty("admission_background_keyspaces") public java.util.List<String> admissionBackgroundKeyspaces = new java.util.ArrayList<>();
    /** The width of an epoch of epoch-LIFO. */
    @JsonProperty("admission_epoch_in_ms") public long admissionEpochMillis = 100;

    /**
     * Who may connect: AllowAllAuthenticator (everyone, the default) or PasswordAuthenticator (a role and its password,
     * docs/security.md); Cassandra's fully qualified class names are accepted too.
     */
    @JsonProperty("authenticator") public String authenticator = "AllowAllAuthenticator";
    /** How long a node uses a role it has read for logins before reading it again; 0: read at every login. */
    @JsonProperty("roles_validity_in_ms") public long rolesValidityMillis = 2000;

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

    /** Checks values that have a fixed set of choices or a range; the message names the setting. */
    public void validate() {
        if (!commitlogSync.equals("periodic") && !commitlogSync.equals("batch")) {
            throw new IllegalArgumentException("commitlog_sync must be 'periodic' or 'batch', was '" + commitlogSync + "'");
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
        requiresPasswords(); // names a bad authenticator
        if (rolesValidityMillis < 0) throw new IllegalArgumentException("roles_validity_in_ms must not be negative, was " + rolesValidityMillis);
        admissionSettings(); // names a bad admission setting
        if (admissionMaxWaitMillis < 1) throw new IllegalArgumentException("admission_max_wait_in_ms must be positive, was " + admissionMaxWaitMillis);
        if (batchSizeWarnKb < 0 || batchSizeFailKb < batchSizeWarnKb) {
            throw new IllegalArgumentException("batch_size_fail_threshold_in_kb (" + batchSizeFailKb + ") must be at least "
                    + "batch_size_warn_threshold_in_kb (" + batchSizeWarnKb + "), which must not be negative");
        }
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

package ballot.storage;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each table's local read and write latencies (storage only, no coordination), for the admin CLI's tablestats and
 * tablehistograms. The timers live in a registry of their own that is never scraped: a table is too many labels for
 * the node's meters (docs/metrics.md), not for an operator asking about one table. It is a Prometheus registry because
 * only a registry with aggregable percentiles keeps percentile histogram buckets (LatencyPercentiles reads them).
 */
final class TableLatencies {
    /** A table's timers of local reads (one partition) and writes (one batch). */
    record Timers(Timer reads, Timer writes) {}

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<UUID, Timers> tables = new ConcurrentHashMap<>();

    Timers of(UUID tableId) {
        return tables.computeIfAbsent(tableId, id -> new Timers(timer("reads", id), timer("writes", id)));
    }

    void forget(UUID tableId) {
        Timers timers = tables.remove(tableId);
        if (timers == null) return;
        registry.remove(timers.reads());
        registry.remove(timers.writes());
    }

    private Timer timer(String kind, UUID tableId) {
        return Timer.builder("ballot.storage.table." + kind).tag("table", tableId.toString())
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(1_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}

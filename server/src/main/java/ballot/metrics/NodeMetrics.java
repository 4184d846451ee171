package ballot.metrics;

import ballot.admission.StorageHealth;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The meter registry of one node, created by the node and handed to the parts that record into it; never a global
 * registry, so that nodes sharing a JVM (tests) keep their meters apart. Starts with the JVM's memory, GC and thread
 * meters and the process's CPU meters.
 */
public final class NodeMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /** Listens to GC notifications until closed. */
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public NodeMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The trace writer's counters: sessions dropped because it was behind, and writes that failed. */
    public void traces(LongSupplier dropped, LongSupplier failed) {
        FunctionCounter.builder("ballot.tracing.dropped", dropped, LongSupplier::getAsLong)
                .description("Trace sessions (or late events) not written because the trace writer was behind")
                .register(registry);
        FunctionCounter.builder("ballot.tracing.write.failures", failed, LongSupplier::getAsLong)
                .description("Trace sessions (or late events) whose write to system_traces failed")
                .register(registry);
    }

    /**
     * RocksDB's background errors (how many were reported, and 1 while one that stops writes is not recovered from) and
     * its health (the slowdown signals admission's write tokens follow).
     */
    public void storage(LongSupplier backgroundErrors, LongSupplier pendingBackgroundError, Supplier<StorageHealth> health) {
        Gauge.builder("ballot.storage.l0.files", health, h -> h.get().l0Files()).strongReference(true)
                .description("SST files in level 0 of the column family that has most (RocksDB slows writes at level0_slowdown_writes_trigger)")
                .register(registry);
        Gauge.builder("ballot.storage.pending.compaction", health, h -> h.get().pendingCompactionBytes()).strongReference(true).baseUnit("bytes")
                .description("Bytes compaction is behind by, all column families together").register(registry);
        Gauge.builder("ballot.storage.writes.delayed", health, h -> h.get().writesDelayed() ? 1 : 0).strongReference(true)
                .description("1 while RocksDB delays or stops writes (a write stall)").register(registry);
        FunctionCounter.builder("ballot.storage.background.errors", backgroundErrors, LongSupplier::getAsLong)
                .description("Background errors RocksDB reported (a full disk, too many open files, IO errors)").register(registry);
        Gauge.builder("ballot.storage.background.error.pending", pendingBackgroundError, LongSupplier::getAsLong).strongReference(true)
                .description("1 while a background error stops writes: they fail with WRITE_FAILURE until storage recovers").register(registry);
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}

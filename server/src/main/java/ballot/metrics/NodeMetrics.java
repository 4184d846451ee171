package ballot.metrics;

import ballot.admission.StorageHealth;
import ballot.cluster.Membership;
import ballot.cluster.NodeInfo;
import ballot.storage.StorageActivity;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The meter registry of one node, created by the node and handed to the parts that record into it; never a global
 * registry, so that nodes sharing a JVM (tests) keep their meters apart. Starts with the JVM's memory, GC and thread
 * meters and the process's CPU, uptime and open-file meters.
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
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
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

    /** RocksDB's background work, the data's size and the block cache (docs/metrics.md, Storage). */
    public void storageActivity(Supplier<StorageActivity> activity) {
        activityGauge("ballot.storage.compactions.running", activity, StorageActivity::runningCompactions, null, "Compactions running now");
        activityGauge("ballot.storage.flushes.running", activity, StorageActivity::runningFlushes, null, "Memtable flushes running now");
        activityGauge("ballot.storage.sst", activity, StorageActivity::sstBytes, "bytes", "Bytes of SST files, all column families together");
        activityGauge("ballot.storage.memtable", activity, StorageActivity::memtableBytes, "bytes", "Bytes of memtables, active and immutable, all column families together");
        activityGauge("ballot.storage.block.cache.used", activity, StorageActivity::blockCacheUsedBytes, "bytes", "Bytes the block cache holds");
        activityGauge("ballot.storage.block.cache.pinned", activity, StorageActivity::blockCachePinnedBytes, "bytes", "Bytes of the block cache in use by readers now");
        activityGauge("ballot.storage.block.cache.capacity", activity, StorageActivity::blockCacheCapacityBytes, "bytes", "The block cache's size (block_cache_size_in_mb)");
    }

    private void activityGauge(String name, Supplier<StorageActivity> activity, ToDoubleFunction<StorageActivity> value, String unit, String description) {
        Gauge.builder(name, activity, a -> value.applyAsDouble(a.get())).strongReference(true).baseUnit(unit).description(description).register(registry);
    }

    /** The members this node knows, by whether its failure detector holds them up (this node counts as up). */
    public void cluster(Membership membership) {
        Gauge.builder("ballot.cluster.nodes", membership, m -> count(m, true)).tag("status", "UP").strongReference(true)
                .description("Members of the cluster this node sees up, itself included").register(registry);
        Gauge.builder("ballot.cluster.nodes", membership, m -> count(m, false)).tag("status", "DOWN").strongReference(true)
                .description("Members of the cluster this node sees down").register(registry);
    }

    private static int count(Membership membership, boolean up) {
        int n = 0;
        for (NodeInfo node : membership.members()) {
            boolean alive = node.hostId().equals(membership.self().hostId()) || membership.isAlive(node.hostId());
            if (alive == up) n++;
        }
        return n;
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}

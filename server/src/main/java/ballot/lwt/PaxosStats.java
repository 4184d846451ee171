package ballot.lwt;

import ballot.paxos.Mark;
import ballot.paxos.coordinator.CasResult;
import ballot.paxos.coordinator.CasResult.Outcome;
import ballot.storage.StorageEngine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * What this node's Paxos did since it started, as Micrometer meters named after ScyllaDB's {@code cas_*} metrics
 * where one exists (docs/metrics.md): latency, contention, timeouts, unavailables and round trips (docs/paxos.md §7,
 * §9: "rounds per LWT") of CAS writes and of SERIAL reads, failed conditions, the protocol's marks, and gauges of the
 * paxos table's size and of the coordinators' queues. The accessors read the same meters, for tests and the log line
 * at shutdown. Thread-safe.
 */
public final class PaxosStats {
    /** The coordinators' queues (§8) as of their last tick: partitions with state, requests queued, longest queue. */
    record Queues(int partitions, int queued, int queuedMax) {
        static final Queues EMPTY = new Queues(0, 0, 0);
    }

    private final Requests writes;
    private final Requests reads;
    private final Counter conditionNotMet;
    private final Counter timeoutDueToUncertainty;
    /** Statements refused because their partition's queue was full: an admission refusal (docs/admission.md). */
    private final Counter partitionCapRefusals;
    private final Counter fastPath;
    private final Map<Mark, Counter> marks = new EnumMap<>(Mark.class);

    PaxosStats(MeterRegistry registry, StorageEngine storage, GroupCommit groupCommit, Supplier<Queues> queues) {
        writes = new Requests(registry, "write", "conditional statements");
        reads = new Requests(registry, "read", "SERIAL reads");
        conditionNotMet = Counter.builder("ballot.paxos.cas.write.condition.not.met")
                .description("Conditional statements whose condition did not hold (not applied)").register(registry);
        partitionCapRefusals = Counter.builder("ballot.admission.rejected").tag("reason", "partition_cap")
                .description("Requests refused with OVERLOADED, by reason").register(registry);
        timeoutDueToUncertainty = Counter.builder("ballot.paxos.cas.write.timeout.due.to.uncertainty")
                .description("Conditional statements answered WriteTimeout(CAS) because a proposal carrying them may have "
                        + "been accepted but was not decided: their effect is unknown").register(registry);
        fastPath = Counter.builder("ballot.paxos.cas.fast.path")
                .description("Requests decided by a round that used a held promise: no prepare (docs/paxos.md 4.8)").register(registry);
        for (Mark m : Mark.values()) {
            marks.put(m, Counter.builder("ballot.paxos.marks").tag("mark", m.name())
                    .description("Notable protocol events (ballot.paxos.Mark)").register(registry));
        }
        FunctionCounter.builder("ballot.paxos.cas.unfinished.commit", marks.get(Mark.PREPARE_FOUND_INCOMPLETE), Counter::count)
                .description("Accepted but uncommitted proposals found by a prepare and finished first (paxos repair)")
                .register(registry);
        FunctionCounter.builder("ballot.paxos.cas.prune", marks.get(Mark.PRUNE), Counter::count)
                .description("Decrees every replica applied, whose entries were pruned from the paxos registers").register(registry);

        FunctionCounter.builder("ballot.paxos.acceptor.steps.synced", groupCommit, GroupCommit::stepsSynced)
                .description("Acceptor steps written in a synced batch (promises, accepts, commits that clear an acceptance, "
                        + "and any step sharing their batch): synced steps per LWT is this over the LWTs, summed over the replicas")
                .register(registry);
        FunctionCounter.builder("ballot.paxos.acceptor.steps.written", groupCommit, GroupCommit::stepsWritten)
                .description("Acceptor steps written in a batch that needed no sync (prunes, purges, other commits)").register(registry);
        FunctionCounter.builder("ballot.paxos.group.commit.syncs", groupCommit, GroupCommit::syncs)
                .description("Synced RocksDB batches the group commit wrote, one fsync each").register(registry);
        gauge(registry, "ballot.paxos.table.keys", null, storage, StorageEngine::paxosEstimatedKeys,
                "RocksDB's estimate of the keys in the paxos column family (registers and plain-write versions)");
        gauge(registry, "ballot.paxos.table.sst", "bytes", storage, StorageEngine::paxosSstBytes,
                "Size of the paxos column family's SST files");
        gauge(registry, "ballot.paxos.table.memtable", "bytes", storage, StorageEngine::paxosMemtableBytes,
                "Size of the paxos column family's memtables");
        gauge(registry, "ballot.paxos.partitions", null, queues, q -> q.get().partitions(),
                "Partitions with coordinator state on this node");
        gauge(registry, "ballot.paxos.queued.requests", null, queues, q -> q.get().queued(),
                "Requests waiting behind their partition's round in flight, all partitions together");
        gauge(registry, "ballot.paxos.partition.queue.max", null, queues, q -> q.get().queuedMax(),
                "Requests waiting behind the round in flight of the partition with the longest queue");
    }

    private static <T> void gauge(MeterRegistry registry, String name, String unit, T source, ToDoubleFunction<T> value,
            String description) {
        Gauge.builder(name, source, value).strongReference(true).baseUnit(unit).description(description).register(registry);
    }

    /** The meters of one kind of request: CAS writes or SERIAL reads. */
    private static final class Requests {
        final Timer latency;
        final DistributionSummary contention;
        final Map<Outcome, DistributionSummary> roundTrips = new EnumMap<>(Outcome.class);
        final Counter timeouts;
        final Counter unavailable;

        Requests(MeterRegistry registry, String kind, String what) {
            String prefix = "ballot.paxos.cas." + kind + ".";
            latency = Timer.builder(prefix + "latency")
                    .description("Latency of " + what + " on this coordinator, from arrival to answer, every outcome")
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(100_000))
                    .maximumExpectedValue(Duration.ofSeconds(10))
                    .register(registry);
            contention = DistributionSummary.builder(prefix + "contention")
                    .description("Times one of the " + what + " backed off because another ballot won")
                    .serviceLevelObjectives(1, 2, 4, 8, 16)
                    .register(registry);
            for (Outcome o : Outcome.values()) {
                roundTrips.put(o, DistributionSummary.builder(prefix + "round.trips").tag("outcome", o.name())
                        .description("Network round trips one of the " + what + " waited for, by outcome (docs/paxos.md 7)")
                        .serviceLevelObjectives(1, 2, 3, 4, 6, 8, 16)
                        .register(registry));
            }
            timeouts = Counter.builder(prefix + "timeouts")
                    .description("Timeouts of " + what + " (contention timeout, unknown outcome or commit level not reached)")
                    .register(registry);
            unavailable = Counter.builder(prefix + "unavailable")
                    .description("Unavailable answers to " + what + ": too few live replicas").register(registry);
        }

        void record(CasResult result, long nanos) {
            latency.record(nanos, TimeUnit.NANOSECONDS);
            contention.record(result.contentions());
            roundTrips.get(result.outcome()).record(result.roundTrips());
            switch (result.outcome()) {
                case TIMED_OUT, UNKNOWN, COMMIT_TIMEOUT -> timeouts.increment();
                case UNAVAILABLE -> unavailable.increment();
                case APPLIED, NOT_APPLIED, OVERLOADED -> { }
            }
        }
    }

    /** One answer of the engine, {@code nanos} after the request arrived; {@code statementFailed}: its evaluation threw. */
    void record(CasResult result, boolean read, boolean statementFailed, long nanos) {
        (read ? reads : writes).record(result, nanos);
        // NOT_APPLIED also answers a statement that failed when evaluated (a list index out of bounds): not a condition
        if (!read && result.outcome() == Outcome.NOT_APPLIED && !statementFailed) conditionNotMet.increment();
        if (!read && result.outcome() == Outcome.UNKNOWN) timeoutDueToUncertainty.increment();
        if (result.outcome() == Outcome.OVERLOADED) partitionCapRefusals.increment();
        if (result.fastPath()) fastPath.increment();
    }

    /** A request the coordinator refused as unavailable before it reached the engine. */
    void unavailable(boolean read) {
        (read ? reads : writes).unavailable.increment();
    }

    void mark(Mark mark) {
        marks.get(mark).increment();
    }

    public long results(Outcome outcome) {
        return writes.roundTrips.get(outcome).count() + reads.roundTrips.get(outcome).count();
    }

    /** Round trips summed over the answers with this outcome. */
    public long roundTrips(Outcome outcome) {
        return (long) (writes.roundTrips.get(outcome).totalAmount() + reads.roundTrips.get(outcome).totalAmount());
    }

    public long marks(Mark mark) {
        return (long) marks.get(mark).count();
    }

    public long contentions() {
        return (long) (writes.contention.totalAmount() + reads.contention.totalAmount());
    }

    public long serialReads() {
        long n = 0;
        for (DistributionSummary s : reads.roundTrips.values()) n += s.count();
        return n;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("results={");
        boolean first = true;
        for (Outcome o : Outcome.values()) {
            long n = results(o);
            if (n == 0) continue;
            if (!first) s.append(", ");
            first = false;
            s.append(o).append('=').append(n).append(String.format(Locale.ROOT, " (%.2f round trips)", (double) roundTrips(o) / n));
        }
        s.append("} serial_reads=").append(serialReads()).append(" contentions=").append(contentions())
                .append(" fast_path=").append((long) fastPath.count()).append(" marks={");
        first = true;
        for (Mark m : Mark.values()) {
            long n = marks(m);
            if (n == 0) continue;
            if (!first) s.append(", ");
            first = false;
            s.append(m).append('=').append(n);
        }
        return s.append('}').toString();
    }
}

package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.PartitionKey;
import ballot.paxos.Mark;
import ballot.paxos.coordinator.CasResult;
import ballot.paxos.coordinator.CasResult.Outcome;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which meters each answer of the engine moves (docs/metrics.md), and that the accessors read the same meters. */
class PaxosStatsTest {
    @TempDir
    Path directory;
    private StorageEngine storage;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private PaxosStats.Queues queues = PaxosStats.Queues.EMPTY;
    private PaxosStats stats;
    private GroupCommit groupCommit;

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        groupCommit = new GroupCommit(storage, 8, true);
        stats = new PaxosStats(registry, storage, groupCommit, () -> queues);
    }

    @AfterEach
    void close() throws InterruptedException {
        groupCommit.close();
        storage.close();
    }

    private static CasResult result(Outcome outcome, int roundTrips, int contentions, boolean fastPath) {
        return new CasResult(outcome, null, roundTrips, contentions, fastPath);
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }

    /** NOT_APPLIED also answers a statement whose evaluation failed (a list index out of bounds): no condition failed. */
    @Test
    void aFailedStatementIsNotAConditionNotMet() {
        stats.record(result(Outcome.NOT_APPLIED, 1, 0, false), false, true, 1);
        assertThat(counter("ballot.paxos.cas.write.condition.not.met")).isZero();
        assertThat(stats.results(Outcome.NOT_APPLIED)).isEqualTo(1);
    }

    @Test
    void countsEachOutcomeOfWritesAndReadsUnderItsCasName() {
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        stats.record(result(Outcome.APPLIED, 2, 1, true), false, false, 3 * ms);
        stats.record(result(Outcome.NOT_APPLIED, 1, 0, true), false, false, ms);
        stats.record(result(Outcome.UNKNOWN, 4, 3, false), false, false, 1000 * ms);
        stats.record(result(Outcome.TIMED_OUT, 0, 5, false), false, false, 1000 * ms);
        stats.record(result(Outcome.COMMIT_TIMEOUT, 2, 0, false), false, false, 1000 * ms);
        stats.record(result(Outcome.UNAVAILABLE, 0, 0, false), false, false, 0);
        stats.unavailable(false);
        stats.record(result(Outcome.NOT_APPLIED, 1, 0, false), true, false, ms);
        stats.record(result(Outcome.TIMED_OUT, 2, 2, false), true, false, 1000 * ms);
        stats.unavailable(true);

        assertThat(counter("ballot.paxos.cas.write.condition.not.met")).isEqualTo(1);
        assertThat(counter("ballot.paxos.cas.write.timeouts")).isEqualTo(3);
        assertThat(counter("ballot.paxos.cas.write.timeout.due.to.uncertainty")).isEqualTo(1);
        assertThat(counter("ballot.paxos.cas.write.unavailable")).isEqualTo(2);
        assertThat(counter("ballot.paxos.cas.read.timeouts")).isEqualTo(1);
        assertThat(counter("ballot.paxos.cas.read.unavailable")).isEqualTo(1);
        assertThat(counter("ballot.paxos.cas.fast.path")).isEqualTo(2);
        assertThat(registry.get("ballot.paxos.cas.write.latency").timer().count()).isEqualTo(6);
        assertThat(registry.get("ballot.paxos.cas.write.latency").timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3004);
        assertThat(registry.get("ballot.paxos.cas.read.latency").timer().count()).isEqualTo(2);
        assertThat(registry.get("ballot.paxos.cas.write.contention").summary().totalAmount()).isEqualTo(9);
        assertThat(registry.get("ballot.paxos.cas.write.round.trips").tag("outcome", "APPLIED").summary().totalAmount()).isEqualTo(2);

        assertThat(stats.results(Outcome.NOT_APPLIED)).isEqualTo(2);
        assertThat(stats.results(Outcome.TIMED_OUT)).isEqualTo(2);
        assertThat(stats.roundTrips(Outcome.TIMED_OUT)).isEqualTo(2);
        assertThat(stats.roundTrips(Outcome.UNKNOWN)).isEqualTo(4);
        assertThat(stats.contentions()).isEqualTo(11);
        assertThat(stats.serialReads()).isEqualTo(2);
    }

    @Test
    void marksFeedTheirOwnCountersAndTheUnfinishedCommitAndPruneCounters() {
        stats.mark(Mark.PREPARE_FOUND_INCOMPLETE);
        stats.mark(Mark.PREPARE_FOUND_INCOMPLETE);
        stats.mark(Mark.PRUNE);
        stats.mark(Mark.CONTENTION);

        assertThat(registry.get("ballot.paxos.cas.unfinished.commit").functionCounter().count()).isEqualTo(2);
        assertThat(registry.get("ballot.paxos.cas.prune").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("ballot.paxos.marks").tag("mark", "CONTENTION").counter().count()).isEqualTo(1);
        assertThat(stats.marks(Mark.PREPARE_FOUND_INCOMPLETE)).isEqualTo(2);
        assertThat(stats.marks(Mark.FAST_PATH)).isZero();
    }

    @Test
    void gaugesReadTheCoordinatorQueuesAndThePaxosColumnFamily() {
        queues = new PaxosStats.Queues(3, 5, 4);
        assertThat(registry.get("ballot.paxos.partitions").gauge().value()).isEqualTo(3);
        assertThat(registry.get("ballot.paxos.queued.requests").gauge().value()).isEqualTo(5);
        assertThat(registry.get("ballot.paxos.partition.queue.max").gauge().value()).isEqualTo(4);

        assertThat(registry.get("ballot.paxos.table.keys").gauge().value()).isZero();
        UUID table = UUID.randomUUID();
        storage.ensureTable(ballot.cql.statement.SchemaDefinitions.table("ks", "CREATE TABLE t (k int PRIMARY KEY)", table));
        for (int k = 0; k < 10; k++) storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table, PartitionKey.of(CqlValuesTest.i(k)), new byte[100], List.of())), true);
        assertThat(registry.get("ballot.paxos.table.keys").gauge().value()).isEqualTo(10);
        assertThat(registry.get("ballot.paxos.table.memtable").gauge().value()).isGreaterThan(1000);
        assertThat(registry.get("ballot.paxos.table.sst").gauge().value()).isZero(); // nothing flushed yet
    }
}

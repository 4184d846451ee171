package ballot.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.cluster.NodeStatus;
import ballot.cluster.SimNetwork;
import ballot.cluster.SimScheduler;
import ballot.cluster.SimSeed;
import ballot.cluster.SimWorld;
import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.error.ReadTimeoutException;
import ballot.cql.error.UnavailableException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.statement.SchemaDefinitions;
import ballot.lwt.SystemPaxosRows;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.storage.WriteId;
import ballot.system.LocalNode;
import ballot.system.SystemKeyspaces;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas (RF 3) with real storage, their coordinators talking over a simulated network that drops, delays and
 * partitions messages, in simulated time. Checks docs/cluster.md's promises: a QUORUM read sees every QUORUM write
 * acknowledged before it began; levels that live replicas cannot meet fail with UNAVAILABLE; timeouts report real
 * counts. One seed replays one run (-Dballot.sim.seed=).
 */
class ReplicationSimulationTest {
    private static final int KEYS = 4;

    @TempDir
    Path directory;

    /** Membership fixed in advance; the test decides who is alive. */
    private static final class StaticMembership implements Membership {
        private final NodeInfo self;
        private final List<NodeInfo> members;
        private final Set<UUID> alive;

        StaticMembership(NodeInfo self, List<NodeInfo> members, Set<UUID> alive) {
            this.self = self;
            this.members = members;
            this.alive = alive;
        }

        public NodeInfo self() { return self; }
        public List<NodeInfo> members() { return members; }
        public NodeInfo member(UUID hostId) {
            for (NodeInfo n : members) if (n.hostId().equals(hostId)) return n;
            return null;
        }
        public boolean isAlive(UUID hostId) { return alive.contains(hostId); }
        public void listen(MembershipListener listener) {}
        public void schemaVersionChanged(UUID version) {}
    }

    private record Node(NodeInfo info, ReplicatedCoordinator coordinator) {}

    private final class Cluster implements AutoCloseable {
        final SimWorld world;
        final List<StorageEngine> engines = new ArrayList<>();
        final SimNetwork network;
        final TableMetadata table;
        /** A table with rows: {@code (k int, c int, v int, PRIMARY KEY (k, c))}. */
        final TableMetadata clustered;
        final List<Node> nodes = new ArrayList<>();
        final Set<UUID> alive = new HashSet<>();
        long timestamps;
        /** How far the coordinators' wall clock is set from the simulated time (an operator's or NTP's step). */
        long wallClockStepMillis;

        Cluster(long seed, double dropRate) {
            world = new SimWorld(seed);
            network = new SimNetwork(world).lossy(dropRate, Duration.ofMillis(1), Duration.ofMillis(15));
            table = SchemaDefinitions.table("ks", "CREATE TABLE t (k int PRIMARY KEY, v bigint)", UUID.nameUUIDFromBytes(new byte[] {7}));
            clustered = SchemaDefinitions.table("ks", "CREATE TABLE rows (k int, c int, v int, PRIMARY KEY (k, c))", UUID.nameUUIDFromBytes(new byte[] {8}));
            KeyspaceMetadata ks = new KeyspaceMetadata("ks", Map.of("class", "org.apache.cassandra.locator.SimpleStrategy",
                    "replication_factor", "3"), true, Map.of("t", table, "rows", clustered), Map.of());
            Schema schema = new Schema(Map.of("ks", ks), UUID.randomUUID());
            List<NodeInfo> infos = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                List<Long> tokens = new ArrayList<>();
                for (int t = 0; t < 4; t++) tokens.add(world.random().nextLong());
                infos.add(new NodeInfo(new UUID(0, i), new InetSocketAddress(address(i), 7000), address(i), 9042, "datacenter1",
                        "rack1", tokens, NodeStatus.NORMAL, schema.version(), LocalNode.RELEASE_VERSION));
            }
            for (NodeInfo info : infos) {
                alive.add(info.hostId());
                StorageEngine storage = StorageEngine.open(new StorageOptions(
                        directory.resolve(Long.toString(seed)).resolve(info.hostId().toString()), false, 10_000, 4L << 20, 0));
                engines.add(storage);
                storage.ensureTable(table);
                storage.ensureTable(clustered);
                LocalReplica local = new LocalReplica(storage, () -> schema, new WriteId(1), () -> world.currentTimeMillis() * 1000, info.hostId());
                LocalNode localNode = new LocalNode("sim", info.hostId(), info.internode().getAddress(), 7000, info.nativeAddress(), 9042,
                        "datacenter1", "rack1", info.tokens(), 1);
                SimNetwork.Endpoint endpoint = network.listen(info.internode(), new SimScheduler(world));
                ReplicatedCoordinator[] holder = new ReplicatedCoordinator[1];
                ReplicaHandlers.register(endpoint, local, () -> holder[0], () -> schema);
                SimpleMeterRegistry metrics = new SimpleMeterRegistry();
                holder[0] = new ReplicatedCoordinator(new StaticMembership(info, infos, alive), endpoint, local,
                        new SystemKeyspaces(localNode, () -> schema, new SystemPaxosRows(storage, () -> schema)), () -> schema, new HintStore(storage, 1000, metrics),
                        new ReplicatedCoordinator.Timeouts(Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofMillis(200)),
                        () -> world.currentTimeMillis() + wallClockStepMillis, world::nanoTime, new CoordinatorMetrics(metrics), Runnable::run);
                nodes.add(new Node(info, holder[0]));
            }
        }

        private InetAddress address(int i) {
            try {
                return InetAddress.getByName("127.0.0." + i);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }

        PartitionUpdate write(int key, long value, long timestamp) {
            Cell cell = Cell.live(table.column("v").id(), null, ByteBuffer.allocate(8).putLong(0, value), timestamp);
            Row row = new Row(Clustering.EMPTY, new LivenessInfo(timestamp, 0, Integer.MAX_VALUE), DeletionTime.LIVE, List.of(cell), List.of());
            return new PartitionUpdate(table.id(), key(key), DeletionTime.LIVE, List.of(), null, List.of(row));
        }

        PartitionKey key(int key) {
            return PartitionKey.of(ByteBuffer.allocate(4).putInt(0, key));
        }

        /** The timestamp of the value a read returned for the key, or MIN if none. */
        long timestampOf(PartitionData data) {
            long newest = Long.MIN_VALUE;
            for (Row row : data.rows()) for (Cell c : row.cells()) if (c.isLive(Integer.MAX_VALUE - 10)) newest = Math.max(newest, c.timestamp());
            return newest;
        }

        @Override
        public void close() {
            for (StorageEngine s : engines) s.close();
        }

        <T> T await(CompletableFuture<T> future) {
            assertThat(world.runUntil(future::isDone, Duration.ofSeconds(30))).as("request finished in simulated time").isTrue();
            return future.join();
        }
    }

    @Test
    void quorumReadsSeeEveryQuorumWriteAcknowledgedBeforeThem() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0.05)) {
            Map<Integer, Long> acknowledged = new HashMap<>();
            int reads = 0;
            int writes = 0;
            for (int op = 0; op < 300; op++) {
                int key = c.world.random().nextInt(KEYS);
                Node coordinator = c.nodes.get(c.world.random().nextInt(3));
                if (op % 50 == 25) {
                    // Cut one node off for a while: QUORUM must keep working through the other two.
                    InetSocketAddress cut = c.nodes.get(c.world.random().nextInt(3)).info().internode();
                    Set<InetSocketAddress> all = new HashSet<>();
                    for (Node n : c.nodes) all.add(n.info().internode());
                    c.network.partition(Set.of(cut), all);
                } else if (op % 50 == 45) {
                    c.network.heal();
                }
                if (c.world.random().nextBoolean()) {
                    long ts = ++c.timestamps;
                    CompletableFuture<Void> write = coordinator.coordinator().write(List.of(c.write(key, ts, ts)), ConsistencyLevel.QUORUM, WriteType.SIMPLE);
                    boolean done = c.world.runUntil(write::isDone, Duration.ofSeconds(30));
                    assertThat(done).isTrue();
                    if (!write.isCompletedExceptionally()) {
                        acknowledged.merge(key, ts, Math::max);
                        writes++;
                    } else {
                        Throwable cause = failure(write);
                        assertThat(cause).as("a failed QUORUM write is a timeout with its counts").isInstanceOf(WriteTimeoutException.class);
                        assertThat(((WriteTimeoutException) cause).received()).isLessThan(2);
                    }
                } else {
                    long mustSee = acknowledged.getOrDefault(key, Long.MIN_VALUE);
                    CompletableFuture<PartitionData> read = coordinator.coordinator().read(c.table, c.key(key),
                            ReadSpec.all(Integer.MAX_VALUE - 10), ConsistencyLevel.QUORUM);
                    boolean done = c.world.runUntil(read::isDone, Duration.ofSeconds(30));
                    assertThat(done).isTrue();
                    if (!read.isCompletedExceptionally()) {
                        assertThat(c.timestampOf(read.join())).as("read of key %d after the write at %d was acknowledged", key, mustSee)
                                .isGreaterThanOrEqualTo(mustSee);
                        reads++;
                    }
                }
            }
            assertThat(writes).as("acknowledged writes").isGreaterThan(50);
            assertThat(reads).as("successful reads").isGreaterThan(50);
            }
        });
    }

    @Test
    void levelsTheLiveReplicasCannotMeetFailWithUnavailableBeforeSendingAnything() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
            c.alive.remove(c.nodes.get(2).info().hostId());
            Node coordinator = c.nodes.get(0);
            try {
                coordinator.coordinator().write(List.of(c.write(1, 1, 1)), ConsistencyLevel.ALL, WriteType.SIMPLE);
                throw new AssertionError("ALL with a replica down must fail");
            } catch (UnavailableException e) {
                assertThat(e.required()).isEqualTo(3);
                assertThat(e.alive()).isEqualTo(2);
            }
            c.await(coordinator.coordinator().write(List.of(c.write(1, 2, 2)), ConsistencyLevel.QUORUM, WriteType.SIMPLE));
            PartitionData data = c.await(coordinator.coordinator().read(c.table, c.key(1), ReadSpec.all(Integer.MAX_VALUE - 10), ConsistencyLevel.QUORUM));
            assertThat(c.timestampOf(data)).isEqualTo(2);
            }
        });
    }

    @Test
    void aReadRepairsAReplicaThatMissedAWrite() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
            Set<InetSocketAddress> all = new HashSet<>();
            for (Node n : c.nodes) all.add(n.info().internode());
            // Node 3 misses the write (cut off, still believed alive, so no hint is kept for it).
            c.network.partition(Set.of(c.nodes.get(2).info().internode()), all);
            c.await(c.nodes.get(0).coordinator().write(List.of(c.write(1, 5, 5)), ConsistencyLevel.QUORUM, WriteType.SIMPLE));
            c.network.heal();
            // An ALL read finds the digest mismatch, repairs node 3, and answers the newest value.
            PartitionData all3 = c.await(c.nodes.get(0).coordinator().read(c.table, c.key(1), ReadSpec.all(Integer.MAX_VALUE - 10), ConsistencyLevel.ALL));
            assertThat(c.timestampOf(all3)).isEqualTo(5);
            // Node 3 alone now has it: a read at ONE from node 3 as coordinator is served locally.
            PartitionData local = c.await(c.nodes.get(2).coordinator().read(c.table, c.key(1), ReadSpec.all(Integer.MAX_VALUE - 10), ConsistencyLevel.ONE));
            assertThat(c.timestampOf(local)).as("repaired replica").isEqualTo(5);
            }
        });
    }

    /**
     * Short-read protection: node 1 missed the deletion of rows 1-5 and alone deleted row 8, so at ALL with LIMIT 5
     * node 1 answers rows 1-5 (its limit) and the others rows 6-10. Merged as they are, row 8 would come back from the
     * dead: what node 1 holds past its fifth row is unknown. The read answers only what every answer covers, repairs,
     * and reads again.
     */
    @Test
    void aReadCutShortByAnotherReplicasDeletionsReadsAgainAndNeverResurrectsARow() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
                WriteId ids = new WriteId(9);
                int v = c.clustered.column("v").id();
                List<Row> live = new ArrayList<>();
                for (int row = 1; row <= 10; row++) {
                    live.add(new Row(rowKey(row), new LivenessInfo(1, 0, Integer.MAX_VALUE), DeletionTime.LIVE,
                            List.of(Cell.live(v, null, ByteBuffer.allocate(4).putInt(0, row), 1)), List.of()));
                }
                List<Row> firstFive = new ArrayList<>();
                for (int row = 1; row <= 5; row++) firstFive.add(Row.deletion(rowKey(row), new DeletionTime(2, 100)));
                for (StorageEngine engine : c.engines) engine.apply(List.of(new ballot.storage.Mutation(rows(c, live), ids.next(1))));
                for (StorageEngine engine : c.engines.subList(1, 3)) engine.apply(List.of(new ballot.storage.Mutation(rows(c, firstFive), ids.next(2))));
                c.engines.get(0).apply(List.of(new ballot.storage.Mutation(rows(c, List.of(Row.deletion(rowKey(8), new DeletionTime(3, 100)))), ids.next(3))));

                ReadSpec limit5 = new ReadSpec(List.of(ballot.cql.data.Slice.ALL), false, 5, Integer.MAX_VALUE, Integer.MAX_VALUE - 10);
                PartitionData read = c.await(c.nodes.get(0).coordinator().read(c.clustered, c.key(1), limit5, ConsistencyLevel.ALL));
                List<Integer> rows = new ArrayList<>();
                for (Row r : read.rows()) if (r.hasLiveData(limit5.nowInSec())) rows.add(r.clustering().get(0).getInt(0));
                assertThat(rows).containsExactly(6, 7, 9, 10);
            }
        });
    }

    /** Node 3 missed the deletion of partition 1 (no hint: written to the other replicas' storage directly). */
    @Test
    void aScanNeverReturnsAPartitionThatAnotherReplicaDeleted() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
                WriteId ids = new WriteId(9);
                for (StorageEngine engine : c.engines) {
                    engine.apply(List.of(new ballot.storage.Mutation(c.write(1, 10, 1), ids.next(1)),
                            new ballot.storage.Mutation(c.write(2, 20, 1), ids.next(1))));
                }
                for (StorageEngine engine : c.engines.subList(0, 2)) {
                    engine.apply(List.of(new ballot.storage.Mutation(partitionDeletion(c.table, c.key(1), 2), ids.next(2))));
                }
                List<PartitionData> scan = c.await(c.nodes.get(2).coordinator().scan(c.table, ballot.cql.data.TokenRange.ALL,
                        ReadSpec.all(Integer.MAX_VALUE - 10), 100, ConsistencyLevel.ALL));
                assertThat(scan).extracting(PartitionData::key).containsExactly(c.key(2));
            }
        });
    }

    /**
     * Short-read protection of scans: node 1 missed the deletion of the first five partitions (in token order) and
     * alone deleted the eighth, so with a limit of five partitions node 1 answers the first five and the others the
     * sixth to the tenth. Merged as they are, the eighth would come back from the dead.
     */
    @Test
    void aScanCutShortByAnotherReplicasDeletionsReadsOnAndNeverResurrectsAPartition() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
                WriteId ids = new WriteId(9);
                // Ten partitions of one ring segment, so that the limit cuts one request's answers.
                List<Long> tokens = new ArrayList<>();
                for (Node n : c.nodes) tokens.addAll(n.info().tokens());
                tokens.sort(Long::compare);
                int widest = 1;
                for (int i = 1; i < tokens.size(); i++) {
                    if (tokens.get(i) - tokens.get(i - 1) > tokens.get(widest) - tokens.get(widest - 1)) widest = i;
                }
                List<Integer> ints = new ArrayList<>();
                for (int k = 1; ints.size() < 10; k++) {
                    long token = c.key(k).token();
                    if (token > tokens.get(widest - 1) && token <= tokens.get(widest)) ints.add(k);
                }
                List<PartitionKey> keys = new ArrayList<>();
                for (int k : ints) keys.add(c.key(k));
                keys.sort(PartitionKey::compareTo);
                for (StorageEngine engine : c.engines) {
                    for (int k : ints) engine.apply(List.of(new ballot.storage.Mutation(c.write(k, k, 1), ids.next(1))));
                }
                for (StorageEngine engine : c.engines.subList(1, 3)) {
                    for (PartitionKey key : keys.subList(0, 5)) {
                        engine.apply(List.of(new ballot.storage.Mutation(partitionDeletion(c.table, key, 2), ids.next(2))));
                    }
                }
                c.engines.get(0).apply(List.of(new ballot.storage.Mutation(partitionDeletion(c.table, keys.get(7), 3), ids.next(3))));

                List<PartitionData> scan = c.await(c.nodes.get(0).coordinator().scan(c.table, ballot.cql.data.TokenRange.ALL,
                        ReadSpec.all(Integer.MAX_VALUE - 10), 5, ConsistencyLevel.ALL));
                assertThat(scan).extracting(PartitionData::key).containsExactly(keys.get(5), keys.get(6), keys.get(8), keys.get(9));
            }
        });
    }

    /** As {@link #aReadCutShortByAnotherReplicasDeletionsReadsAgainAndNeverResurrectsARow}, through a scan with a row limit. */
    @Test
    void aScanCutInsideAPartitionByAnotherReplicasDeletionsNeverResurrectsARow() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
                WriteId ids = new WriteId(9);
                int v = c.clustered.column("v").id();
                List<Row> live = new ArrayList<>();
                for (int row = 1; row <= 10; row++) {
                    live.add(new Row(rowKey(row), new LivenessInfo(1, 0, Integer.MAX_VALUE), DeletionTime.LIVE,
                            List.of(Cell.live(v, null, ByteBuffer.allocate(4).putInt(0, row), 1)), List.of()));
                }
                List<Row> firstFive = new ArrayList<>();
                for (int row = 1; row <= 5; row++) firstFive.add(Row.deletion(rowKey(row), new DeletionTime(2, 100)));
                for (StorageEngine engine : c.engines) engine.apply(List.of(new ballot.storage.Mutation(rows(c, live), ids.next(1))));
                for (StorageEngine engine : c.engines.subList(1, 3)) engine.apply(List.of(new ballot.storage.Mutation(rows(c, firstFive), ids.next(2))));
                c.engines.get(0).apply(List.of(new ballot.storage.Mutation(rows(c, List.of(Row.deletion(rowKey(8), new DeletionTime(3, 100)))), ids.next(3))));

                ReadSpec limit5 = new ReadSpec(List.of(ballot.cql.data.Slice.ALL), false, 5, Integer.MAX_VALUE, Integer.MAX_VALUE - 10);
                List<PartitionData> scan = c.await(c.nodes.get(0).coordinator().scan(c.clustered, ballot.cql.data.TokenRange.ALL,
                        limit5, 100, ConsistencyLevel.ALL));
                List<Integer> rows = new ArrayList<>();
                for (PartitionData p : scan) for (Row r : p.rows()) if (r.hasLiveData(limit5.nowInSec())) rows.add(r.clustering().get(0).getInt(0));
                assertThat(rows).containsExactly(6, 7, 9, 10);
            }
        });
    }

    private static PartitionUpdate partitionDeletion(TableMetadata table, PartitionKey key, long timestamp) {
        return new PartitionUpdate(table.id(), key, new DeletionTime(timestamp, 100), List.of(), null, List.of());
    }

    private static Clustering rowKey(int c) {
        return Clustering.of(ByteBuffer.allocate(4).putInt(0, c));
    }

    private static PartitionUpdate rows(Cluster c, List<Row> rows) {
        return new PartitionUpdate(c.clustered.id(), c.key(1), DeletionTime.LIVE, List.of(), null, rows);
    }

    @Test
    void aStatementDeadlineCutsTheWaitForReplicasShort() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
            cutOffNode3(c);
            ReplicatedCoordinator coordinator = c.nodes.get(0).coordinator();
            assertWriteFailsAtItsDeadline(c, coordinator.within(Duration.ofMillis(50)));

            long start = c.world.currentTimeMillis();
            CompletableFuture<PartitionData> read = coordinator.within(Duration.ofMillis(50))
                    .read(c.table, c.key(1), ReadSpec.all(Integer.MAX_VALUE - 10), ConsistencyLevel.ALL);
            assertThat(c.world.runUntil(read::isDone, Duration.ofSeconds(30))).isTrue();
            assertThat(failure(read)).isInstanceOf(ReadTimeoutException.class);
            assertThat(c.world.currentTimeMillis() - start).as("simulated ms until the read failed").isBetween(50L, 199L);
            }
        });
    }

    /** A statement's deadline is on the monotonic clock: a step of the wall clock neither ends it nor stretches it. */
    @Test
    void aStatementDeadlineIgnoresStepsOfTheWallClock() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
            cutOffNode3(c);
            ReplicatedCoordinator coordinator = c.nodes.get(0).coordinator();
            DataCoordinator statement = coordinator.within(Duration.ofMillis(50));
            c.wallClockStepMillis = 3_600_000;
            assertWriteFailsAtItsDeadline(c, statement);
            statement = coordinator.within(Duration.ofMillis(50));
            c.wallClockStepMillis = -3_600_000;
            assertWriteFailsAtItsDeadline(c, statement);
            }
        });
    }

    /** Node 3 is cut off but still believed alive: coordinators wait for it until a timeout (200 ms configured). */
    private static void cutOffNode3(Cluster c) {
        Set<InetSocketAddress> all = new HashSet<>();
        for (Node n : c.nodes) all.add(n.info().internode());
        c.network.partition(Set.of(c.nodes.get(2).info().internode()), all);
    }

    /** With node 3 cut off, a write at ALL through {@code statement} (a 50 ms deadline) fails at the deadline. */
    private static void assertWriteFailsAtItsDeadline(Cluster c, DataCoordinator statement) {
        long start = c.world.nanoTime();
        CompletableFuture<Void> write = statement.write(List.of(c.write(1, 5, 5)), ConsistencyLevel.ALL, WriteType.SIMPLE);
        assertThat(c.world.runUntil(write::isDone, Duration.ofSeconds(30))).as("write done").isTrue();
        assertThat(failure(write)).isInstanceOfSatisfying(WriteTimeoutException.class, e -> assertThat(e.received()).isEqualTo(2));
        assertThat(Duration.ofNanos(c.world.nanoTime() - start).toMillis()).as("simulated ms until the write failed").isBetween(50L, 199L);
    }

    @Test
    void anOperationStartingAfterItsDeadlineFailsWithoutTouchingAReplica() {
        SimSeed.repeat(seed -> {
            try (Cluster c = new Cluster(seed, 0)) {
            DataCoordinator expired = c.nodes.get(0).coordinator().within(Duration.ZERO);
            assertThatThrownBy(() -> expired.write(List.of(c.write(1, 5, 5)), ConsistencyLevel.ONE, WriteType.SIMPLE))
                    .isInstanceOfSatisfying(WriteTimeoutException.class, e -> assertThat(e.received()).isZero());
            assertThatThrownBy(() -> expired.read(c.table, c.key(1), ReadSpec.all(Integer.MAX_VALUE - 10), ConsistencyLevel.ONE))
                    .isInstanceOfSatisfying(ReadTimeoutException.class, e -> assertThat(e.received()).isZero());
            PartitionData data = c.await(c.nodes.get(0).coordinator().read(c.table, c.key(1), ReadSpec.all(Integer.MAX_VALUE - 10),
                    ConsistencyLevel.ALL));
            assertThat(c.timestampOf(data)).as("newest timestamp on every replica").isEqualTo(Long.MIN_VALUE);
            }
        });
    }

    private static Throwable failure(CompletableFuture<?> future) {
        try {
            future.join();
            return null;
        } catch (CompletionException e) {
            return e.getCause();
        }
    }
}

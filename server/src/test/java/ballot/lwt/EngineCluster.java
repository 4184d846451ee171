package ballot.lwt;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.cluster.NodeStatus;
import ballot.cql.ConsistencyLevel;
import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.statement.SchemaDefinitions;
import ballot.net.Messaging;
import ballot.net.MessagingException;
import ballot.net.Verb;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Several {@link PaxosEngine}s in one JVM, each over its own RocksDB, joined by a loopback {@link Messaging} that
 * really encodes and decodes every payload with the verbs' codecs and can drop requests or responses by verb, and a
 * membership whose liveness the test sets. Below BallotNode, for the outcomes a healthy network never shows.
 */
public final class EngineCluster implements AutoCloseable {
    /** Which messages the network loses: per verb, the request (never delivered) or only its response. */
    public enum Loss { NONE, REQUEST, RESPONSE }

    public static final TableMetadata TABLE = SchemaDefinitions.table("ks", "CREATE TABLE t (k int PRIMARY KEY, v int)",
            UUID.fromString("0000000a-0000-0000-0000-00000000000b"));
    private static final int V = TABLE.column("v").id();
    /** A second table of {@code ks}, and one in keyspace {@code bulk}, for tests that tell partitions' classes apart. */
    public static final TableMetadata OTHER = SchemaDefinitions.table("ks", "CREATE TABLE other (k int PRIMARY KEY, v int)",
            UUID.fromString("0000000a-0000-0000-0000-00000000000c"));
    public static final TableMetadata BULK = SchemaDefinitions.table("bulk", "CREATE TABLE t (k int PRIMARY KEY, v int)",
            UUID.fromString("0000000a-0000-0000-0000-00000000000d"));

    private final Path directory;
    private final Duration contention;
    private final Set<String> background;
    private final int lanes;
    public final List<Member> members = new ArrayList<>();
    private final Map<InetSocketAddress, Member> byAddress = new ConcurrentHashMap<>();
    private final Set<UUID> down = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Loss> losses = new ConcurrentHashMap<>();
    private final ExecutorService network = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "loopback-network");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong clock = new AtomicLong(System.currentTimeMillis() * 1000);
    final AtomicLong delivered = new AtomicLong();
    /** Each request and each response is also lost with this probability (seeded: {@link #random}). */
    volatile double lossRate;
    final java.util.Random random = new java.util.Random(42);

    /** One node: its identity, storage and engine (null while stopped), and its verb handlers. */
    public final class Member {
        final int index;
        public final NodeInfo info;
        final Map<Integer, Messaging.Handler<?, ?>> handlers = new ConcurrentHashMap<>();
        /** The requests delivered to this node, each noted once its handler has taken it (queued it on a lane). */
        final java.util.Queue<Object> received = new java.util.concurrent.ConcurrentLinkedQueue<>();
        public StorageEngine storage;
        public PaxosEngine engine;

        Member(int index) {
            this.index = index;
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7000 + index);
            this.info = new NodeInfo(new UUID(0x1000 + index, index), address, address.getAddress(), 9042, "datacenter1", "rack1",
                    List.of((long) index), NodeStatus.NORMAL, new UUID(0, 0), "5.0.0");
        }

        void start() {
            storage = StorageEngine.open(new StorageOptions(directory.resolve("n" + index), false, 10_000, 8L << 20, 0));
            for (TableMetadata table : List.of(TABLE, OTHER, BULK)) storage.ensureTable(table);
            Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", "3");
            Schema schema = new Schema(Map.of(
                    "ks", new KeyspaceMetadata("ks", replication, true, Map.of(), Map.of()).withTable(TABLE).withTable(OTHER),
                    "bulk", new KeyspaceMetadata("bulk", replication, true, Map.of(), Map.of()).withTable(BULK)), new UUID(0, 1));
            engine = new PaxosEngine(storage, () -> schema, id -> null, info.hostId(), clock::incrementAndGet,
                    new PaxosEngine.Options(contention, lanes, Duration.ofMillis(2), contention, 8, contention.multipliedBy(10), 128, true), new SimpleMeterRegistry());
            engine.runInBackground(background);
            handlers.clear();
            engine.handle(new LoopbackMessaging(this));
            engine.start(new FakeMembership(this), new LoopbackMessaging(this), (table, token, serial) -> replicas());
        }

        void stop() {
            engine.close();
            storage.close();
            engine = null;
            handlers.clear();
        }
    }

    public EngineCluster(Path directory, int size, Duration contention) {
        this(directory, size, contention, Set.of(), 2);
    }

    /**
     * @param background the keyspaces whose partitions' lane tasks are background work (admission_background_keyspaces)
     * @param lanes each engine's Paxos lanes
     */
    public EngineCluster(Path directory, int size, Duration contention, Set<String> background, int lanes) {
        this.directory = directory;
        this.contention = contention;
        this.background = background;
        this.lanes = lanes;
        for (int i = 0; i < size; i++) {
            Member m = new Member(i);
            members.add(m);
            byAddress.put(m.info.internode(), m);
        }
        for (Member m : members) m.start();
    }

    List<NodeInfo> replicas() {
        List<NodeInfo> out = new ArrayList<>();
        for (Member m : members) out.add(m.info);
        return out;
    }

    void lose(Verb<?, ?> verb, Loss loss) {
        losses.put(verb.id(), loss);
    }

    void heal() {
        losses.clear();
    }

    public void markDown(int index, boolean isDown) {
        if (isDown) down.add(members.get(index).info.hostId());
        else down.remove(members.get(index).info.hostId());
    }

    // ---------------------------------------------------------------- requests

    public static PartitionKey key(int k) {
        return PartitionKey.of(ByteBuffer.allocate(4).putInt(0, k));
    }

    /** Sets v to {@code to} if it is {@code from} (null: the row does not exist) — a CAS register. */
    public static CasRequest setIf(int k, Integer from, int to) {
        return setIf(TABLE, k, from, to);
    }

    /** {@link #setIf(int, Integer, int)} on {@code table}, one of this cluster's tables. */
    public static CasRequest setIf(TableMetadata table, int k, Integer from, int to) {
        int v = table.column("v").id();
        return new CasRequest() {
            public TableMetadata table() {
                return table;
            }

            public PartitionKey key() {
                return EngineCluster.key(k);
            }

            public ReadSpec read() {
                return ReadSpec.all((int) (System.currentTimeMillis() / 1000));
            }

            public PartitionUpdate apply(PartitionData current, long timestampMicros) {
                Integer was = value(current);
                if (from == null ? was != null : !from.equals(was)) return null;
                Row row = Row.of(Clustering.EMPTY, LivenessInfo.of(timestampMicros, 0, 0),
                        List.of(Cell.live(v, null, ByteBuffer.allocate(4).putInt(0, to), timestampMicros)));
                return new PartitionUpdate(table.id(), key(), DeletionTime.LIVE, List.of(), null, List.of(row));
            }
        };
    }

    public static CasRequest read(int k) {
        return CasRequest.read(TABLE, key(k), ReadSpec.all((int) (System.currentTimeMillis() / 1000)));
    }

    public static Integer value(PartitionData data) {
        for (Row r : data.rows()) {
            for (Cell c : r.cells()) if (c.column() == V && c.value() != null) return c.value().getInt(c.value().position());
        }
        return null;
    }

    public CompletableFuture<CasResult> cas(int coordinator, CasRequest request, ConsistencyLevel commit) {
        return members.get(coordinator).engine.cas(request, ConsistencyLevel.SERIAL, commit);
    }

    @Override
    public void close() {
        for (Member m : members) if (m.engine != null) m.stop();
        network.shutdownNow();
    }

    // ---------------------------------------------------------------- fakes

    private final class FakeMembership implements Membership {
        private final Member self;

        FakeMembership(Member self) {
            this.self = self;
        }

        public NodeInfo self() {
            return self.info;
        }

        public Collection<NodeInfo> members() {
            return replicas();
        }

        public NodeInfo member(UUID hostId) {
            for (Member m : members) if (m.info.hostId().equals(hostId)) return m.info;
            return null;
        }

        public boolean isAlive(UUID hostId) {
            return !down.contains(hostId);
        }

        public void listen(MembershipListener listener) {}

        public void schemaVersionChanged(UUID version) {}
    }

    /** Delivers through the codecs, on the network executor; losses fail the request at once (a lost message). */
    private final class LoopbackMessaging implements Messaging {
        private final Member self;

        LoopbackMessaging(Member self) {
            this.self = self;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <Q, R> CompletableFuture<R> request(InetSocketAddress peer, Verb<Q, R> verb, Q payload, Duration timeout, Dispatch completion) {
            CompletableFuture<R> reply = new CompletableFuture<>();
            Loss loss = losses.getOrDefault(verb.id(), Loss.NONE);
            Member target = byAddress.get(peer);
            if (loss == Loss.REQUEST || target == null || down.contains(target.info.hostId()) || lost()) {
                reply.completeExceptionally(new MessagingException(MessagingException.Reason.TIMEOUT, "lost " + verb));
                return reply;
            }
            Q request = roundTrip(verb.request(), payload);
            network.execute(() -> {
                Messaging.Handler<Q, R> handler = (Messaging.Handler<Q, R>) target.handlers.get(verb.id());
                if (handler == null) {
                    reply.completeExceptionally(new MessagingException(MessagingException.Reason.REMOTE_ERROR, "no handler"));
                    return;
                }
                delivered.incrementAndGet();
                handler.handle(request, self.info.internode()).whenComplete((response, error) -> {
                    if (error != null) reply.completeExceptionally(error);
                    else if (losses.getOrDefault(verb.id(), Loss.NONE) == Loss.RESPONSE || lost())
                        reply.completeExceptionally(new MessagingException(MessagingException.Reason.TIMEOUT, "lost reply of " + verb));
                    else network.execute(() -> reply.complete(roundTrip(verb.response(), response)));
                });
                target.received.add(request);
            });
            return reply;
        }

        private boolean lost() {
            double rate = lossRate;
            if (rate == 0) return false;
            synchronized (random) {
                return random.nextDouble() < rate;
            }
        }

        private <T> T roundTrip(ballot.net.Codec<T> codec, T value) {
            ByteBuf buf = Unpooled.buffer();
            try {
                codec.encode(value, buf);
                return codec.decode(buf);
            } finally {
                buf.release();
            }
        }

        @Override
        public <Q, R> void handle(Verb<Q, R> verb, Handler<Q, R> handler, Dispatch dispatch) {
            self.handlers.put(verb.id(), handler);
        }

        @Override
        public InetSocketAddress localAddress() {
            return self.info.internode();
        }

        @Override
        public void close() {}
    }
}

package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.TimeUuids;
import ballot.cql.error.UnavailableException;
import ballot.cql.execute.TraceWriter;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.trace.TraceEvent;
import ballot.cql.trace.TraceKeyspace;
import ballot.cql.trace.TraceSession;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a finished trace session writes, and in which order: drivers poll its session row at ONE until the duration is
 * set, then read its events at ONE, perhaps from the other replica of system_traces (RF 2).
 */
class TraceWriterTest {
    private static final UUID EVENTS_ID = UUID.randomUUID();

    /** Each write as "table@LEVEL", in the order they were asked for. */
    private final List<String> writes = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean aReplicaIsDown;
    private final SchemaFixture node = new SchemaFixture(recordingWrites(), null, null);
    private final TraceWriter writer;

    TraceWriterTest() {
        TableMetadata sessions = SchemaDefinitions.table(TraceKeyspace.NAME, TraceKeyspace.CREATE_SESSIONS, UUID.randomUUID());
        TableMetadata events = SchemaDefinitions.table(TraceKeyspace.NAME, TraceKeyspace.CREATE_EVENTS, EVENTS_ID);
        node.put(new KeyspaceMetadata(TraceKeyspace.NAME, TraceKeyspace.REPLICATION, true,
                Map.of(TraceKeyspace.SESSIONS, sessions, TraceKeyspace.EVENTS, events), Map.of()));
        writer = new TraceWriter(node.environment, node.preparer, 86_400, 16, 4);
    }

    @AfterEach
    void close() {
        writer.close();
    }

    /** Only writes: what the trace writer does. */
    private DataCoordinator recordingWrites() {
        return (DataCoordinator) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataCoordinator.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "write" -> {
                        @SuppressWarnings("unchecked")
                        List<PartitionUpdate> updates = (List<PartitionUpdate>) args[0];
                        ConsistencyLevel level = (ConsistencyLevel) args[1];
                        String table = updates.get(0).tableId().equals(EVENTS_ID) ? "events" : "sessions";
                        writes.add(table + "@" + level);
                        yield aReplicaIsDown && level == ConsistencyLevel.ALL
                                ? CompletableFuture.failedFuture(new UnavailableException(level, 2, 1))
                                : CompletableFuture.completedFuture(null);
                    }
                    case "within", "withReadDeadline" -> proxy;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static TraceSession.Completed finished() throws Exception {
        InetAddress here = InetAddress.getLoopbackAddress();
        List<TraceEvent> events = List.of(new TraceEvent(TimeUuids.next(1L), "Parsing", here, 7000, 10, "t"),
                new TraceEvent(TimeUuids.next(2L), "Done", here, 7000, 20, "t"));
        return new TraceSession.Completed(UUID.randomUUID(), here, "QUERY", here, 7000, 30, Map.of(), "SELECT", 0L, events);
    }

    /** The writer thread's writes, waited for at most 5 s. */
    private void awaitWrites(int count) throws InterruptedException {
        for (int i = 0; i < 500 && writes.size() < count; i++) Thread.sleep(10);
        Thread.sleep(50); // and nothing more
    }

    @Test
    void theEventsReachEveryReplicaBeforeTheSessionRowIsWritten() throws Exception {
        writer.completed(finished());
        awaitWrites(2);
        assertThat(writes).containsExactly("events@ALL", "sessions@ANY");
    }

    @Test
    void withAReplicaDownTheEventsAreWrittenAtAnyAsCassandraDoes() throws Exception {
        aReplicaIsDown = true;
        writer.completed(finished());
        awaitWrites(3);
        assertThat(writes).containsExactly("events@ALL", "events@ANY", "sessions@ANY");
        assertThat(writer.failed()).isZero();
    }
}

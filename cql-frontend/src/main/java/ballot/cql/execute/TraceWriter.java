package ballot.cql.execute;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.ProtocolBatch;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.trace.TraceEvent;
import ballot.cql.trace.TraceKeyspace;
import ballot.cql.trace.TraceSession;
import ballot.cql.trace.TraceSink;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes finished trace sessions into system_traces, off the request path: one thread takes sessions from a bounded
 * queue and writes each one's events, then its session row, as ordinary CQL writes with the trace TTL. Drivers poll
 * the session row until its duration is set and then read the events, so the row is written once the events are on
 * every replica (at ALL). Where that fails, and for every other write, it is ANY, as Cassandra writes its traces
 * ({@code TraceStateImpl.mutateWithCatch}): a replica that is down gets them as hints, and a trace never costs an
 * Unavailable. A session's late events (replies slower than the
 * consistency level) are written {@value #LATE_FLUSH_DELAY_MILLIS} ms after the first, all in one batch.
 *
 * <p>A traced request never waits for any of this and never sees its failures: when the queue is full, or
 * {@code inFlightMax} sessions are being written, sessions are dropped and counted ({@link #dropped()}), and a write
 * that fails is counted ({@link #failed()}) and logged at DEBUG. The environment given should keep these writes out of
 * the client request metrics.
 */
public final class TraceWriter implements TraceSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TraceWriter.class);
    /** Long enough for the other replicas of a request to answer too, so that its late events make one write. */
    static final long LATE_FLUSH_DELAY_MILLIS = 100;

    private final QueryEnvironment environment;
    private final CqlStatement insertEvent;
    private final CqlStatement insertSession;
    private final ThreadPoolExecutor writer;
    private final Semaphore inFlight;
    /** Submits to the writer {@value #LATE_FLUSH_DELAY_MILLIS} ms later (on the JDK's shared delay thread). */
    private final Executor lateFlush = CompletableFuture.delayedExecutor(LATE_FLUSH_DELAY_MILLIS, TimeUnit.MILLISECONDS, this::submit);
    private final LongAdder dropped = new LongAdder();
    private final LongAdder failed = new LongAdder();

    /**
     * @param ttlSeconds how long trace rows live ({@code tracetype_query_ttl}, checked positive by the configuration)
     * @param queueMax sessions waiting to be written before new ones are dropped
     * @param inFlightMax sessions being written at once
     */
    public TraceWriter(QueryEnvironment environment, Preparer preparer, int ttlSeconds, int queueMax, int inFlightMax) {
        this.environment = environment;
        String using = " USING TTL " + ttlSeconds;
        this.insertEvent = preparer.prepare("INSERT INTO " + TraceKeyspace.NAME + "." + TraceKeyspace.EVENTS
                + " (session_id, event_id, activity, source, source_elapsed, source_port, thread) VALUES (?, ?, ?, ?, ?, ?, ?)"
                + using, null);
        this.insertSession = preparer.prepare("INSERT INTO " + TraceKeyspace.NAME + "." + TraceKeyspace.SESSIONS
                + " (session_id, client, command, coordinator, coordinator_port, duration, parameters, request, started_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)" + using, null);
        this.inFlight = new Semaphore(inFlightMax);
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queueMax), r -> {
            Thread t = new Thread(r, "trace-writer");
            t.setDaemon(true);
            return t;
        });
    }

    /** Sessions and late events not written because the writer was behind or there were too many. */
    public long dropped() {
        return dropped.sum();
    }

    /** Sessions and late events whose write failed. */
    public long failed() {
        return failed.sum();
    }

    @Override
    public void completed(TraceSession.Completed session) {
        submit(() -> write(session.sessionId(), () -> writeEvents(session.sessionId(), session.events())
                .handle((ok, error) -> writeSession(session)).thenCompose(Function.identity())));
    }

    @Override
    public void late(TraceSession session) {
        lateFlush.execute(() -> {
            TraceSession.Late late = session.takeLate();
            dropped.add(late.dropped());
            if (!late.events().isEmpty()) write(late.sessionId(), () -> writeEvents(late.sessionId(), late.events()));
        });
    }

    private void submit(Runnable task) {
        try {
            writer.execute(task);
        } catch (RejectedExecutionException e) {
            dropped.increment();
        }
    }

    /** Runs on the writer thread: waits for a free slot, so that a slow cluster fills the queue instead of memory. */
    private void write(UUID sessionId, Supplier<CompletableFuture<?>> write) {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            dropped.increment();
            return;
        }
        CompletableFuture<?> written;
        try {
            written = write.get();
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        written.whenComplete((ok, error) -> {
            inFlight.release();
            if (error != null) {
                failed.increment();
                log.debug("trace not written session={} error={}", sessionId, unwrap(error).toString());
            }
        });
    }

    private CompletableFuture<Void> writeEvents(UUID sessionId, List<TraceEvent> events) {
        if (events.isEmpty()) return CompletableFuture.completedFuture(null);
        CqlStatement insert = insertEvent;
        List<List<ByteBuffer>> values = new ArrayList<>(events.size());
        for (TraceEvent e : events) {
            values.add(values(insert, sessionId, e.eventId(), e.activity(), e.source(), e.sourceElapsedMicros(), e.sourcePort(),
                    e.thread()));
        }
        List<CqlStatement> statements = Collections.nCopies(events.size(), insert);
        Function<ConsistencyLevel, CompletableFuture<Void>> batch = level -> attempt(() -> ProtocolBatch.run(environment,
                BatchType.UNLOGGED, statements, values, QueryOptions.of(level, List.of()), TraceKeyspace.NAME, List.of()));
        // On every replica before the session row, which drivers read at ONE, perhaps from the other replica: at ANY
        // alone, a driver could find the session finished and its events not yet there. ANY when a replica is down.
        return batch.apply(ConsistencyLevel.ALL).exceptionallyCompose(error -> batch.apply(ConsistencyLevel.ANY));
    }

    private CompletableFuture<Void> writeSession(TraceSession.Completed s) {
        CqlStatement insert = insertSession;
        List<ByteBuffer> values = values(insert, s.sessionId(), s.client(), s.command(), s.coordinator(), s.coordinatorPort(),
                s.durationMicros(), s.parameters(), s.request(), Instant.ofEpochMilli(s.startedAtMillis()));
        QueryOptions options = QueryOptions.of(ConsistencyLevel.ANY, values);
        return attempt(() -> insert.execute(QueryContext.of(environment, TraceKeyspace.NAME, options, insert)));
    }

    /** The write's future, failed if starting it threw. */
    private static CompletableFuture<Void> attempt(Supplier<CompletableFuture<?>> write) {
        try {
            return write.get().thenApply(result -> null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static List<ByteBuffer> values(CqlStatement statement, Object... values) {
        List<ColumnSpec> variables = statement.variables();
        List<ByteBuffer> out = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) out.add(variables.get(i).type().decompose(values[i]));
        return out;
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}

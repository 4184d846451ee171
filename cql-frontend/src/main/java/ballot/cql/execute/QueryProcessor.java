package ballot.cql.execute;

import ballot.cql.error.UnpreparedException;
import ballot.cql.protocol.message.Batch;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Execute;
import ballot.cql.protocol.message.Prepare;
import ballot.cql.protocol.message.Prepared;
import ballot.cql.protocol.message.PreparedMetadata;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.Response;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.SetKeyspace;
import ballot.cql.schema.Schema;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.ProtocolBatch;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.trace.Trace;
import ballot.cql.trace.TraceSession;
import ballot.cql.trace.Tracing;
import ballot.cql.transport.ClientState;
import ballot.cql.transport.RequestHandler;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Runs QUERY, PREPARE, EXECUTE and BATCH: parses and prepares statements, keeps prepared ones in a bounded Caffeine
 * cache under Cassandra-style ids (MD5 of keyspace and query text), and executes them on the worker executor, off
 * the connection's event loop. A prepared statement whose schema changed since it was prepared is prepared again
 * from its text before it runs.
 */
public final class QueryProcessor implements RequestHandler {
    /** An entry of the prepared-statement cache. */
    private record PreparedEntry(String query, String keyspace, CqlStatement statement, java.util.UUID schemaVersion,
            ByteBuffer resultMetadataId) {
        PreparedEntry(String query, String keyspace, CqlStatement statement, java.util.UUID schemaVersion) {
            this(query, keyspace, statement, schemaVersion, metadataId(statement.resultMetadata()));
        }
    }

    private final QueryEnvironment environment;
    private final Preparer preparer;
    private final Executor executor;
    private final Cache<ByteBuffer, PreparedEntry> prepared;
    private final boolean inlineWrites;

    /**
     * @param inlineWrites run prepared writes that never wait ({@link CqlStatement#executesWithoutWaiting}) on the
     *     connection's event loop, saving two thread hand-offs; only when a write does not wait for an fsync
     */
    public QueryProcessor(QueryEnvironment environment, Preparer preparer, Executor executor, long preparedCacheEntriesMax,
            boolean inlineWrites) {
        this.environment = environment;
        this.preparer = preparer;
        this.executor = executor;
        this.inlineWrites = inlineWrites;
        this.prepared = Caffeine.newBuilder().maximumSize(preparedCacheEntriesMax).build();
    }

    @Override
    public CompletionStage<? extends Response> handle(Request request, ClientState client) {
        return handle(request, client, null);
    }

    /** With a trace, the request's work on this thread runs with it as {@link Tracing#current()}. */
    @Override
    public CompletionStage<? extends Response> handle(Request request, ClientState client, TraceSession trace) {
        if (trace != null) begin(trace, request);
        if (inlineWrites && request instanceof Execute e) {
            PreparedEntry entry = prepared.getIfPresent(e.statementId());
            if (entry != null && entry.statement().executesWithoutWaiting()) {
                try {
                    return trace == null ? execute(e, client) : Tracing.call(trace, () -> execute(e, client));
                } catch (RuntimeException failure) {
                    return CompletableFuture.failedFuture(failure);
                }
            }
        }
        return CompletableFuture.supplyAsync(() -> trace == null ? dispatch(request, client)
                : Tracing.call(trace, () -> dispatch(request, client)), executor).thenCompose(f -> f);
    }

    /** Names a traced request and its parameters as Cassandra does. */
    private void begin(TraceSession trace, Request request) {
        if (request instanceof Query q) {
            trace.begin("Execute CQL3 query", TraceParameters.of(q.query(), q.options(), List.of()));
        } else if (request instanceof Prepare p) {
            trace.begin("Preparing CQL3 query", Map.of("query", p.query()));
        } else if (request instanceof Execute e) {
            PreparedEntry entry = prepared.getIfPresent(e.statementId());
            trace.begin("Execute CQL3 prepared query", entry == null ? TraceParameters.of(null, e.options(), List.of())
                    : TraceParameters.of(entry.query(), e.options(), entry.statement().variables()));
        } else if (request instanceof Batch b) {
            trace.begin("Execute batch of CQL3 queries", TraceParameters.ofBatch(b.consistency(), b.serialConsistency()));
        }
    }

    /** The parser and preparer, with the step in the request's trace. */
    private CqlStatement prepare(String query, String keyspace) {
        Trace trace = Tracing.current();
        if (trace != null) trace.event("Parsing and preparing " + query);
        return preparer.prepare(query, keyspace);
    }

    private CompletableFuture<? extends Response> dispatch(Request request, ClientState client) {
        if (request instanceof Query q) return query(q, client);
        if (request instanceof Prepare p) return CompletableFuture.completedFuture(prepare(p, client));
        if (request instanceof Execute e) return execute(e, client);
        if (request instanceof Batch b) return batch(b, client);
        throw new IllegalStateException("not a statement request: " + request);
    }

    private CompletableFuture<Response> query(Query q, ClientState client) {
        String keyspace = keyspace(q.options(), client);
        CqlStatement statement = prepare(q.query(), keyspace);
        return run(statement, q.options(), keyspace, client);
    }

    private CompletableFuture<Response> run(CqlStatement statement, QueryOptions options, String keyspace, ClientState client) {
        QueryContext context = QueryContext.of(environment, keyspace, options, statement);
        Tracing.event("Executing statement");
        return statement.execute(context).thenApply(result -> {
            if (result instanceof SetKeyspace use) client.keyspace(use.keyspace());
            return result.withWarnings(context.warnings());
        });
    }

    private Prepared prepare(Prepare p, ClientState client) {
        String keyspace = p.keyspace() != null ? p.keyspace() : client.keyspace();
        ByteBuffer id = statementId(p.query(), keyspace);
        Schema schema = environment.schemas().schema();
        CqlStatement statement = prepare(p.query(), keyspace);
        PreparedEntry entry = new PreparedEntry(p.query(), keyspace, statement, schema.version());
        prepared.put(id, entry);
        RowsMetadata resultMetadata = statement.resultMetadata();
        return new Prepared(id.duplicate(), entry.resultMetadataId().duplicate(),
                new PreparedMetadata(statement.variables(), statement.partitionKeyIndexes(), statement.isConditional()),
                resultMetadata);
    }

    private CompletableFuture<Response> execute(Execute e, ClientState client) {
        PreparedEntry entry = current(e.statementId());
        CompletableFuture<Response> response = run(entry.statement(), e.options(), entry.keyspace(), client);
        if (e.resultMetadataId() == null) return response;
        return response.thenApply(r -> {
            if (!(r instanceof Rows rows)) return r;
            ByteBuffer actual = entry.resultMetadataId();
            if (actual.equals(e.resultMetadataId())) return r;
            return new Rows(rows.metadata().withNewMetadataId(actual.duplicate()), rows.rows());
        });
    }

    /** The cached statement for {@code id}, prepared again if the schema changed since. */
    private PreparedEntry current(ByteBuffer id) {
        PreparedEntry entry = prepared.getIfPresent(id);
        if (entry == null) {
            byte[] bytes = new byte[id.remaining()];
            id.duplicate().get(bytes);
            throw new UnpreparedException(bytes);
        }
        Schema schema = environment.schemas().schema();
        if (!schema.version().equals(entry.schemaVersion())) {
            entry = new PreparedEntry(entry.query(), entry.keyspace(), prepare(entry.query(), entry.keyspace()), schema.version());
            prepared.put(id, entry);
        }
        return entry;
    }

    private CompletableFuture<Response> batch(Batch b, ClientState client) {
        String keyspace = b.keyspace() != null ? b.keyspace() : client.keyspace();
        List<CqlStatement> statements = new ArrayList<>(b.children().size());
        for (Batch.Child child : b.children()) {
            if (child instanceof Batch.QueryChild q) statements.add(prepare(q.query(), keyspace));
            else statements.add(current(((Batch.PreparedChild) child).statementId()).statement());
        }
        QueryOptions options = new QueryOptions(b.consistency(), List.of(), null, false, -1, null, b.serialConsistency(),
                b.defaultTimestamp(), keyspace, b.nowInSeconds());
        List<List<ByteBuffer>> values = new ArrayList<>();
        for (Batch.Child child : b.children()) values.add(child.values());
        Tracing.event("Executing batch");
        return ProtocolBatch.run(environment, b.type(), statements, values, options, keyspace)
                .thenApply(r -> (Response) r);
    }

    private static String keyspace(QueryOptions options, ClientState client) {
        return options.keyspace() != null ? options.keyspace() : client.keyspace();
    }

    /** Cassandra's statement id: MD5 of the keyspace (if any) followed by the query text. */
    static ByteBuffer statementId(String query, String keyspace) {
        return ByteBuffer.wrap(md5((keyspace == null ? "" : keyspace) + query));
    }

    /** Identifies result metadata (v5): MD5 over column names and types. */
    static ByteBuffer metadataId(RowsMetadata metadata) {
        StringBuilder sb = new StringBuilder();
        for (ColumnSpec c : metadata.columns()) sb.append(c.keyspace()).append('.').append(c.table()).append('.').append(c.name()).append(':').append(c.type().cqlName()).append(';');
        return ByteBuffer.wrap(md5(sb.toString()));
    }

    private static byte[] md5(String text) {
        try {
            return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every JVM", e);
        }
    }
}

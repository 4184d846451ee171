package ballot.cql.execute;

import ballot.cql.access.Access;
import ballot.cql.auth.Authorization;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.UnpreparedException;
import ballot.cql.parse.Parser;
import ballot.cql.protocol.message.Batch;
import ballot.cql.protocol.message.Execute;
import ballot.cql.protocol.message.Prepare;
import ballot.cql.protocol.message.Prepared;
import ballot.cql.protocol.message.PreparedMetadata;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.Response;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.protocol.message.SetKeyspace;
import ballot.cql.schema.Schema;
import ballot.cql.spi.CurrentAdmission;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.RequestAdmission;
import ballot.cql.spi.Roles;
import ballot.cql.spi.StatementSource;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.ProtocolBatch;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.statement.StatementAccess;
import ballot.cql.trace.Trace;
import ballot.cql.trace.TraceSession;
import ballot.cql.trace.Tracing;
import ballot.cql.transport.ClientState;
import ballot.cql.transport.RequestHandler;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;

/**
 * Runs QUERY, PREPARE, EXECUTE and BATCH: parses and prepares statements, keeps prepared ones under Cassandra's ids
 * ({@link PreparedStatements}), and executes them on the worker executor, off the connection's event loop. A schema
 * change drops the prepared statements it affects ({@link #schemaChanged}); their EXECUTE is answered UNPREPARED.
 */
public final class QueryProcessor implements RequestHandler {
    private final QueryEnvironment environment;
    private final Preparer preparer;
    private final RequestAdmission admission;
    private final PreparedStatements prepared;
    private final Roles roles;
    private final Permissions permissions;
    private final Authorization authorization;
    private final boolean inlineWrites;
    /**
     * The most bytes of bound values a write run on the event loop may carry: beyond, building and applying it could
     * hold up the event loop's other connections for milliseconds.
     */
    static final int INLINE_VALUE_BYTES_MAX = 16 * 1024;
    /** What a written row costs beyond its values (key, timestamps, log record), about. */
    private static final long WRITE_OVERHEAD_BYTES = 64;
    private static final List<String> WRITING_KEYWORDS = List.of("INSERT", "UPDATE", "DELETE", "BEGIN");
    private static final String TIMEOUT = "TIMEOUT";
    /**
     * The longest unprepared text parsed before admission for its USING TIMEOUT: parsing that much on a connection's
     * thread takes well under a millisecond.
     */
    static final int TIMEOUT_PEEK_CHARS_MAX = 8 * 1024;

    /**
     * @param inlineWrites run prepared writes that never wait ({@link CqlStatement#executesWithoutWaiting}) and carry
     *     at most {@link #INLINE_VALUE_BYTES_MAX} of values on the connection's event loop, saving two thread
     *     hand-offs; only when a write does not wait for an fsync
     * @param roles what the role statements manage, as the client's logged-in role
     * @param permissions what GRANT, REVOKE and LIST PERMISSIONS manage
     * @param authorization what checks, before each execution, that the client's role may run the statement
     */
    public QueryProcessor(QueryEnvironment environment, Preparer preparer, RequestAdmission admission, long preparedCacheEntriesMax,
            boolean inlineWrites, Roles roles, Permissions permissions, Authorization authorization) {
        this.environment = environment;
        this.preparer = preparer;
        this.roles = roles;
        this.permissions = permissions;
        this.authorization = authorization;
        this.admission = admission;
        this.inlineWrites = inlineWrites;
        this.prepared = new PreparedStatements(preparedCacheEntriesMax, environment.schemas()::schema);
    }

    /**
     * Drops the prepared statements that a change in {@code schema} affects, as Cassandra does when a table, its
     * keyspace or a user type it uses is altered or dropped. The node calls it for every schema it installs, its own
     * DDL and changes learnt from peers alike, before the change is acknowledged.
     */
    public void schemaChanged(Schema schema) {
        prepared.dropAffectedBy(schema);
    }

    /** The statements prepared on this node now, for {@code system.prepared_statements}. */
    public List<PreparedStatementInfo> preparedStatements() {
        return prepared.held();
    }

    @Override
    public CompletionStage<? extends Response> handle(Request request, ClientState client) {
        return handle(request, client, null);
    }

    /** With a trace, the request's work on this thread runs with it as {@link Tracing#current()}. */
    @Override
    public CompletionStage<? extends Response> handle(Request request, ClientState client, TraceSession trace) {
        return handle(request, client, trace, false);
    }

    /** A request with a custom payload: its {@link PayloadPriority} sets the priority it is admitted at. */
    @Override
    public CompletionStage<? extends Response> handle(Request request, ClientState client, TraceSession trace, Map<String, ByteBuffer> payload) {
        boolean background;
        try {
            background = PayloadPriority.background(payload);
        } catch (InvalidRequestException e) {
            return CompletableFuture.failedFuture(e);
        }
        return handle(request, client, trace, background);
    }

    private CompletionStage<? extends Response> handle(Request request, ClientState client, TraceSession trace, boolean background) {
        if (trace != null) begin(trace, request);
        PreparedStatements.Entry entry = request instanceof Execute e ? prepared.get(e.statementId()) : null;
        Duration timeout = entry != null ? entry.statement().usingTimeout(((Execute) request).options())
                : request instanceof Query q ? usingTimeout(q, client) : null;
        RequestAdmission.Work work = new RequestAdmission.Work(tenant(entry, client), writeBytes(request, entry), background, timeout);
        if (inlineWrites && entry != null && entry.statement().executesWithoutWaiting()
                && !authorization.mayWait(client.role()) && valueBytes((Execute) request) <= INLINE_VALUE_BYTES_MAX) {
            RequestAdmission.Admitted admitted = admission.tryNow(work);
            if (admitted != null) {
                Execute e = (Execute) request;
                CompletableFuture<? extends Response> executed;
                try {
                    executed = trace == null ? execute(e, client) : Tracing.call(trace, () -> execute(e, client));
                } catch (RuntimeException failure) {
                    admitted.close();
                    return CompletableFuture.failedFuture(failure);
                }
                executed.whenComplete((r, failure) -> admitted.close());
                return executed;
            }
        }
        CompletableFuture<Response> response = new CompletableFuture<>();
        admission.submit(work, admitted -> {
            response.whenComplete((r, failure) -> admitted.close());
            try {
                CompletableFuture<? extends Response> dispatched = CurrentAdmission.call(admitted,
                        () -> trace == null ? dispatch(request, client) : Tracing.call(trace, () -> dispatch(request, client)));
                dispatched.whenComplete((r, failure) -> {
                    if (failure != null) response.completeExceptionally(failure);
                    else response.complete(r);
                });
            } catch (RuntimeException failure) {
                response.completeExceptionally(failure);
            }
        }, response::completeExceptionally);
        return response;
    }

    /**
     * An unprepared statement's USING TIMEOUT, which is also its admission deadline (docs/admission.md, "Deadlines"), or
     * null. Only a text that names TIMEOUT and is at most {@link #TIMEOUT_PEEK_CHARS_MAX} long is parsed for it before
     * admission, on the connection's thread; it is parsed again when it runs. A text that does not prepare has no
     * deadline of its own here: its execution reports why.
     */
    private Duration usingTimeout(Query q, ClientState client) {
        String cql = q.query();
        if (cql.length() > TIMEOUT_PEEK_CHARS_MAX || !namesTimeout(cql)) return null;
        try {
            return preparer.prepare(Parser.parse(cql), keyspace(q.options(), client)).usingTimeout(q.options());
        } catch (RuntimeException notPrepared) {
            return null;
        }
    }

    private static boolean namesTimeout(String cql) {
        for (int i = cql.length() - TIMEOUT.length(); i >= 0; i--)
            if (cql.regionMatches(true, i, TIMEOUT, 0, TIMEOUT.length())) return true;
        return false;
    }

    /**
     * Whose work a request is, for the fair sharing of admission: the keyspace of a prepared statement's table, else
     * the connection's keyspace (a QUERY is admitted before it is parsed, but for its USING TIMEOUT), else none.
     */
    private static String tenant(PreparedStatements.Entry entry, ClientState client) {
        if (entry != null && !entry.statement().tables().isEmpty()) return entry.statement().tables().get(0).keyspace();
        String keyspace = entry != null && entry.keyspace() != null ? entry.keyspace() : client.keyspace();
        return keyspace == null ? "" : keyspace;
    }

    /**
     * About what {@code request} writes to storage, for the write tokens (docs/admission.md): a prepared write's bound
     * values, a BATCH's values and texts, the text of a QUERY that begins with a writing keyword, each with a row's
     * overhead; 0 for what does not write. A QUERY is admitted before it is parsed, so its first word is all there is.
     */
    static long writeBytes(Request request, PreparedStatements.Entry entry) {
        if (request instanceof Execute e) return entry != null && entry.statement().writesStorage() ? WRITE_OVERHEAD_BYTES + valueBytes(e) : 0;
        if (request instanceof Query q) return startsWithWrite(q.query()) ? WRITE_OVERHEAD_BYTES + 2L * q.query().length() : 0;
        if (request instanceof Batch b) {
            long bytes = 0;
            for (Batch.Child child : b.children()) {
                bytes += WRITE_OVERHEAD_BYTES;
                for (ByteBuffer value : child.values()) if (value != null) bytes += value.remaining();
                if (child instanceof Batch.QueryChild q) bytes += 2L * q.query().length();
            }
            return bytes;
        }
        return 0;
    }

    private static boolean startsWithWrite(String query) {
        int i = 0;
        while (i < query.length() && Character.isWhitespace(query.charAt(i))) i++;
        for (String keyword : WRITING_KEYWORDS)
            if (query.regionMatches(true, i, keyword, 0, keyword.length())) return true;
        return false;
    }

    /** The bound values of an EXECUTE, in bytes. */
    private static long valueBytes(Execute e) {
        long bytes = 0;
        for (java.nio.ByteBuffer value : e.options().values()) if (value != null) bytes += value.remaining();
        return bytes;
    }

        /** Names a traced request and its parameters as Cassandra does. */
    private void begin(TraceSession trace, Request request) {
        if (request instanceof Query q) {
            trace.begin("Execute CQL3 query", TraceParameters.of(q.query(), q.options(), List.of()));
        } else if (request instanceof Prepare p) {
            trace.begin("Preparing CQL3 query", Map.of("query", p.query()));
        } else if (request instanceof Execute e) {
            PreparedStatements.Entry entry = prepared.get(e.statementId());
            trace.begin("Execute CQL3 prepared query", entry == null ? TraceParameters.of(null, e.options(), List.of())
                    : TraceParameters.of(entry.query(), e.options(), entry.statement().variables()));
        } else if (request instanceof Batch b) {
            trace.begin("Execute batch of CQL3 queries", TraceParameters.ofBatch(b.consistency(), b.serialConsistency()));
        }
    }

    /** A statement prepared for a client, and what each of its executions needs of the client's role. */
    private record Authorizable(CqlStatement statement, List<Access> access) {}

    /** The preparer, with the step in the request's trace. */
    private Authorizable prepare(Parser.Parsed parsed, String query, String keyspace) {
        Trace trace = Tracing.current();
        if (trace != null) trace.event("Parsing and preparing " + query);
        CqlStatement statement = preparer.prepare(parsed, keyspace);
        return new Authorizable(statement, StatementAccess.of(parsed.statement(), keyspace, environment.schemas().schema()));
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
        Authorizable prepared = prepare(Parser.parse(q.query()), q.query(), keyspace);
        return run(prepared.statement(), prepared.access(), q.query(), q.options(), keyspace, client, UnaryOperator.identity());
    }

    /**
     * Runs {@code statement}, prepared from {@code cql}, if the client's role has the {@code access} it needs;
     * {@code answer} turns its result into what the client is sent.
     */
    private CompletableFuture<Response> run(CqlStatement statement, List<Access> access, String cql, QueryOptions options, String keyspace,
            ClientState client, UnaryOperator<Result> answer) {
        authorization.check(client.role(), access);
        QueryContext context = QueryContext.of(environment, keyspace, options, statement)
                .describedBy(List.of(new StatementSource.Statement(cql, options.values(), options.valueNames())), null)
                .withMemory(client.memory())
                .loggedIn(roles, permissions, client.role());
        Tracing.event("Executing statement");
        return statement.execute(context).thenApply(result -> {
            if (result instanceof SetKeyspace use) client.keyspace(use.keyspace());
            if (result instanceof SchemaChange change) authorization.schemaChanged(client.role(), change);
            return answer.apply(result).withWarnings(context.warnings());
        });
    }

    private Prepared prepare(Prepare p, ClientState client) {
        String keyspace = p.keyspace() != null ? p.keyspace() : client.keyspace();
        Parser.Parsed parsed = Parser.parse(p.query());
        Authorizable authorizable = prepare(parsed, p.query(), keyspace);
        CqlStatement statement = authorizable.statement();
        ByteBuffer id = PreparedStatements.statementId(p.query(), keyspace, Preparer.isFullyQualified(parsed.statement()));
        PreparedStatements.Entry entry = new PreparedStatements.Entry(p.query(), keyspace, statement, authorizable.access());
        prepared.put(id, entry);
        return new Prepared(id.duplicate(), entry.resultMetadataId().duplicate(),
                new PreparedMetadata(statement.variables(), statement.partitionKeyIndexes(), statement.isConditional()),
                statement.resultMetadata());
    }

    private CompletableFuture<Response> execute(Execute e, ClientState client) {
        PreparedStatements.Entry entry = current(e.statementId());
        return run(entry.statement(), entry.access(), entry.query(), e.options(), entry.keyspace(), client,
                result -> result instanceof Rows rows ? withResultMetadata(rows, e, entry) : result);
    }

    /**
     * The metadata of an EXECUTE's rows, as Cassandra 5.0 decides it. From v5 on, where the client sends the id of the
     * result metadata it holds: a conditional statement's rows always carry their metadata, which varies with the
     * outcome; other rows whose metadata has another id carry it with Metadata_changed and the new id, and the rest
     * leave it out if the client asked. Before v5: the metadata is left out if asked, unless it is not the metadata the
     * statement was prepared with.
     */
    private static Rows withResultMetadata(Rows rows, Execute e, PreparedStatements.Entry entry) {
        RowsMetadata metadata = rows.metadata();
        boolean skip = e.options().skipMetadata();
        ByteBuffer actual = metadata.columns().equals(entry.statement().resultMetadata().columns())
                ? entry.resultMetadataId() : PreparedStatements.metadataId(metadata);
        if (e.resultMetadataId() != null) {
            if (entry.statement().isConditional()) return rows;
            if (!actual.equals(e.resultMetadataId())) return new Rows(metadata.withNewMetadataId(actual.duplicate()), rows.rows());
            return skip ? new Rows(metadata.withoutColumnSpecsUnlessChanged(), rows.rows()) : rows;
        }
        return skip && actual.equals(entry.resultMetadataId()) ? new Rows(metadata.withoutColumnSpecsUnlessChanged(), rows.rows()) : rows;
    }

    /** The statement prepared under {@code id}; UNPREPARED if there is none (never prepared, evicted or dropped). */
    private PreparedStatements.Entry current(ByteBuffer id) {
        PreparedStatements.Entry entry = prepared.get(id);
        if (entry == null) {
            byte[] bytes = new byte[id.remaining()];
            id.duplicate().get(bytes);
            throw new UnpreparedException(bytes);
        }
        return entry;
    }

    private CompletableFuture<Response> batch(Batch b, ClientState client) {
        String keyspace = b.keyspace() != null ? b.keyspace() : client.keyspace();
        List<CqlStatement> statements = new ArrayList<>(b.children().size());
        List<StatementSource.Statement> sources = new ArrayList<>(b.children().size());
        List<Access> access = new ArrayList<>();
        for (Batch.Child child : b.children()) {
            String cql;
            if (child instanceof Batch.QueryChild q) {
                cql = q.query();
                Authorizable prepared = prepare(Parser.parse(cql), cql, keyspace);
                statements.add(prepared.statement());
                access.addAll(prepared.access());
            } else {
                PreparedStatements.Entry entry = current(((Batch.PreparedChild) child).statementId());
                cql = entry.query();
                statements.add(entry.statement());
                access.addAll(entry.access());
            }
            sources.add(new StatementSource.Statement(cql, child.values(), null));
        }
        authorization.check(client.role(), access);
        QueryOptions options = new QueryOptions(b.consistency(), List.of(), null, false, -1, null, b.serialConsistency(),
                b.defaultTimestamp(), keyspace, b.nowInSeconds());
        List<List<ByteBuffer>> values = new ArrayList<>();
        for (Batch.Child child : b.children()) values.add(child.values());
        Tracing.event("Executing batch");
        return ProtocolBatch.run(environment, b.type(), statements, values, options, keyspace, sources);
    }

    private static String keyspace(QueryOptions options, ClientState client) {
        return options.keyspace() != null ? options.keyspace() : client.keyspace();
    }
}

package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Statement;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * INSERT JSON: the JSON object is decoded at execution into one value per column and run as a plain INSERT of every
 * column. Missing columns are null, or left untouched with DEFAULT UNSET. Keys match column names case-insensitively
 * unless quoted inside the key ({@code "\"Name\""}).
 */
final class InsertJsonStatement implements BatchableStatement {
    private final TableMetadata table;
    private final Value json;
    private final Value ttl;
    private final Value timestamp;
    private final StatementTimeout timeout;
    private final boolean defaultUnset;
    private final ModificationStatement insert;
    private final List<ColumnMetadata> columns;
    private final Markers markers;

    private InsertJsonStatement(TableMetadata table, Value json, Value ttl, Value timestamp, StatementTimeout timeout,
            boolean defaultUnset, ModificationStatement insert, List<ColumnMetadata> columns, Markers markers) {
        this.table = table;
        this.json = json;
        this.ttl = ttl;
        this.timestamp = timestamp;
        this.timeout = timeout;
        this.defaultUnset = defaultUnset;
        this.insert = insert;
        this.columns = columns;
        this.markers = markers;
    }

    static InsertJsonStatement prepare(TableMetadata table, Statement.InsertJson s, Markers markers, UserTypeResolver types) {
        if (table.isCounter()) throw new InvalidRequestException("INSERT statements are not allowed on counter tables, use UPDATE instead");
        Value json = Terms.prepare(s.json(), new ColumnSpec(table.keyspace(), table.name(), "[json]", CqlTypes.TEXT), markers, types);
        Value ttl = s.attributes().ttl() == null ? null
                : Terms.prepare(s.attributes().ttl(), new ColumnSpec(table.keyspace(), table.name(), "[ttl]", CqlTypes.INT), markers, types);
        Value timestamp = s.attributes().timestamp() == null ? null
                : Terms.prepare(s.attributes().timestamp(), new ColumnSpec(table.keyspace(), table.name(), "[timestamp]", CqlTypes.BIGINT), markers, types);
        List<ColumnMetadata> columns = table.columns();
        List<String> names = new ArrayList<>();
        List<Term> values = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            names.add(columns.get(i).name());
            values.add(new Term.BindMarker(i, null));
        }
        int next = columns.size();
        Term ttlMarker = ttl == null ? null : new Term.BindMarker(next++, null);
        Term timestampMarker = timestamp == null ? null : new Term.BindMarker(next++, null);
        Markers inner = new Markers(next);
        ModificationStatement insert = ModificationStatement.insert(table,
                new Statement.Insert(s.table(), names, values, false, new Statement.Attributes(ttlMarker, timestampMarker)), inner, types);
        StatementTimeout timeout = StatementTimeout.prepare(s.attributes().timeout(), table.keyspace(), table.name(), markers);
        return new InsertJsonStatement(table, json, ttl, timestamp, timeout, s.defaultUnset(), insert, columns, markers);
    }

    @Override
    public List<ColumnSpec> variables() {
        return markers.specs();
    }

    @Override
    public List<String> markerNames() {
        return markers.names();
    }

    @Override
    public Duration usingTimeout(QueryOptions options) {
        return timeout.before(options, markerNames());
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        ModificationStatement.checkWriteConsistency(context.consistency());
        return insert.execute(timeout.applyTo(context).withBindings(innerBindings(context.bindings())));
    }

    @Override
    public CompletableFuture<UpdatesBuilder> collect(QueryContext context, UpdatesBuilder builder) {
        return insert.collect(context.withBindings(innerBindings(context.bindings())), builder);
    }

    @Override
    public void addTo(CasBatch cas, QueryContext context) {
        addWriteTo(cas, context, false);
    }

    /** Adds this insert's write to {@code cas}, {@code conditional} if IF NOT EXISTS; returns the row it writes. */
    Clustering addWriteTo(CasBatch cas, QueryContext context, boolean conditional) {
        return cas.write(insert, context.withBindings(innerBindings(context.bindings())), conditional);
    }

    @Override
    public TableMetadata table() {
        return table;
    }

    @Override
    public boolean isCounter() {
        return false;
    }

    @Override
    public boolean hasTimestamp() {
        return timestamp != null;
    }

    /** The inner INSERT's values: one per column from the JSON, then TTL and timestamp. */
    Bindings innerBindings(Bindings outer) {
        ByteBuffer text = json.bind(outer);
        if (text == null || text == QueryOptions.UNSET) throw new InvalidRequestException("Got null for INSERT JSON values");
        Map<?, ?> object = JsonText.parseObject(CqlTypes.TEXT.compose(text).toString());
        Map<String, Object> byColumn = new HashMap<>();
        for (Map.Entry<?, ?> e : object.entrySet()) {
            String key = e.getKey().toString();
            String name = key.length() > 1 && key.startsWith("\"") && key.endsWith("\"")
                    ? key.substring(1, key.length() - 1).replace("\"\"", "\"") : key.toLowerCase(Locale.ROOT);
            if (table.column(name) == null) throw new InvalidRequestException("JSON values map contains unrecognized column: " + key);
            byColumn.put(name, e.getValue());
        }
        List<ByteBuffer> values = new ArrayList<>();
        for (ColumnMetadata c : columns) {
            if (!byColumn.containsKey(c.name())) {
                values.add(defaultUnset ? QueryOptions.UNSET : null);
                continue;
            }
            Object v = byColumn.get(c.name());
            try {
                values.add(v == null ? null : c.type().fromJson(v));
            } catch (InvalidRequestException e) {
                throw new InvalidRequestException("Error decoding JSON value for " + c.name() + ": " + e.getMessage());
            }
        }
        if (ttl != null) values.add(ttl.bind(outer));
        if (timestamp != null) values.add(timestamp.bind(outer));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) names.add(null);
        return Bindings.of(values, null, names);
    }
}

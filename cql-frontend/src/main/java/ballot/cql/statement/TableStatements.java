package ballot.cql.statement;

import ballot.cql.data.TimeUuids;
import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Properties;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.TableParams;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserTypeResolver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/** CREATE, ALTER and DROP TABLE. */
final class TableStatements {
    private TableStatements() {}

    /** {@code nowMillis} is read when the statement runs, for the id of the table (unless it names one). */
    static SchemaStatement create(Statement.CreateTable s, String keyspace, LongSupplier nowMillis) {
        SchemaStatement.checkUserKeyspace(keyspace);
        SchemaStatement.checkName(s.name().name(), "Table", SchemaStatement.TABLE_NAME_MAX);
        if (s.properties().compactStorage()) {
            throw new InvalidRequestException("Compact tables are not allowed in Cassandra starting with 4.0 version.");
        }
        UUID requestedId = requestedId(s.properties());
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = keyspace(current, keyspace);
                if (ks.table(s.name().name()) != null) {
                    if (s.ifNotExists()) return current;
                    throw new AlreadyExistsException(keyspace, s.name().name());
                }
                UUID id = requestedId != null ? requestedId : TimeUuids.next(nowMillis.getAsLong());
                return with(current, ks.withTable(build(s, ks, id)));
            }

            SchemaChange change() {
                return SchemaChange.table(SchemaChange.Change.CREATED, keyspace, s.name().name());
            }
        };
    }

    /** The id the statement gives the table (WITH id = ...), or null. */
    private static UUID requestedId(Properties properties) {
        Object id = properties.values().get("id");
        if (id == null) return null;
        try {
            return UUID.fromString(id.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("Invalid table id '" + id + "'");
        }
    }

    static TableMetadata build(Statement.CreateTable s, KeyspaceMetadata ks, UUID id) {
        String table = s.name().name();
        UserTypeResolver types = TypeStatements.resolver(ks);
        Map<String, Statement.ColumnDefinition> definitions = new LinkedHashMap<>();
        for (Statement.ColumnDefinition d : s.columns()) {
            if (definitions.put(d.name(), d) != null) throw new InvalidRequestException("Multiple definition of identifier " + d.name());
        }
        Map<String, Boolean> order = new HashMap<>();
        for (Properties.Ordering o : s.properties().clusteringOrder()) {
            if (!s.clustering().contains(o.column())) {
                throw new InvalidRequestException("Only clustering key columns can be defined in CLUSTERING ORDER directive: " + o.column()
                        + " is not a clustering column");
            }
            order.put(o.column(), o.descending());
        }
        List<Properties.Ordering> ordering = s.properties().clusteringOrder();
        for (int i = 0; i < ordering.size(); i++) {
            if (!ordering.get(i).column().equals(s.clustering().get(i))) {
                throw new InvalidRequestException("The order of columns in the CLUSTERING ORDER directive must match that of the "
                        + "clustering columns (" + s.clustering().get(i) + " must appear before " + ordering.get(i).column() + ")");
            }
        }
        List<ColumnMetadata> columns = new ArrayList<>();
        int nextId = 0;
        List<String> keyNames = new ArrayList<>(s.partitionKey());
        keyNames.addAll(s.clustering());
        for (String key : keyNames) {
            if (!definitions.containsKey(key)) throw new InvalidRequestException("Unknown definition " + key + " referenced in PRIMARY KEY");
            if (keyNames.indexOf(key) != keyNames.lastIndexOf(key)) throw new InvalidRequestException("Duplicate column '" + key + "' in PRIMARY KEY");
        }
        boolean hasCounter = false;
        boolean hasNonCounter = false;
        for (Statement.ColumnDefinition d : s.columns()) {
            CqlType type = CqlTypes.parse(d.type(), types);
            CqlTypes.checkDepth(type, "The type of column " + d.name());
            int pk = s.partitionKey().indexOf(d.name());
            int ck = s.clustering().indexOf(d.name());
            ColumnMetadata.Kind kind = pk >= 0 ? ColumnMetadata.Kind.PARTITION_KEY : ck >= 0 ? ColumnMetadata.Kind.CLUSTERING
                    : d.isStatic() ? ColumnMetadata.Kind.STATIC : ColumnMetadata.Kind.REGULAR;
            if (pk >= 0 || ck >= 0) {
                if (d.isStatic()) throw new InvalidRequestException("Static column " + d.name() + " cannot be part of the PRIMARY KEY");
                checkKeyType(d.name(), type);
            } else {
                if (type.kind() == CqlType.Kind.COUNTER) hasCounter = true;
                else hasNonCounter = true;
            }
            if (d.isStatic() && s.clustering().isEmpty()) {
                throw new InvalidRequestException("Static columns are only useful (and thus allowed) if the table has at least one clustering column");
            }
            int position = pk >= 0 ? pk : ck >= 0 ? ck : -1;
            columns.add(new ColumnMetadata(d.name(), nextId++, kind, position, type, ck >= 0 && order.getOrDefault(d.name(), false)));
        }
        if (hasCounter && hasNonCounter) throw new InvalidRequestException("Cannot mix counter and non counter columns in the same table");
        Map<String, Object> options = new LinkedHashMap<>(s.properties().values());
        options.remove("id");
        TableParams params = TableParams.ofNewTable(options);
        if (hasCounter && params.defaultTimeToLive() > 0) {
            throw new InvalidRequestException("Cannot set default_time_to_live on a table with counters");
        }
        return new TableMetadata(ks.name(), s.name().name(), id, columns, params, Map.of(), nextId);
    }

    private static void checkKeyType(String name, CqlType type) {
        if (type.kind() == CqlType.Kind.COUNTER) throw new InvalidRequestException("counter type is not supported for PRIMARY KEY column '" + name + "'");
        if (type.referencesDuration()) throw new InvalidRequestException("duration type is not supported for PRIMARY KEY column '" + name + "'");
        if (type.isMultiCell()) {
            throw new InvalidRequestException("Invalid non-frozen " + (type.kind() == CqlType.Kind.UDT ? "user-defined type" : "collection type")
                    + " for PRIMARY KEY component " + name);
        }
    }

    /** {@code nowMillis} is read when the statement runs, for the time a column is dropped at. */
    static SchemaStatement alter(Statement.AlterTable s, String keyspace, LongSupplier nowMillis) {
        SchemaStatement.checkUserKeyspace(keyspace);
        String name = s.name().name();
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = keyspace(current, keyspace);
                TableMetadata table = ks.table(name);
                if (table == null) {
                    if (s.ifExists()) return current;
                    throw new InvalidRequestException("Table '" + keyspace + "." + name + "' doesn't exist");
                }
                TableMetadata altered = alterTable(table, s.action(), ks, nowMillis.getAsLong() * 1000);
                return altered == table ? current : with(current, ks.withTable(altered));
            }

            SchemaChange change() {
                return SchemaChange.table(SchemaChange.Change.UPDATED, keyspace, name);
            }
        };
    }

    private static TableMetadata alterTable(TableMetadata table, Statement.AlterTableAction action, KeyspaceMetadata ks, long nowMicros) {
        if (action instanceof Statement.AddColumns add) {
            List<ColumnMetadata> columns = new ArrayList<>(table.columns());
            Map<String, DroppedColumn> dropped = new LinkedHashMap<>(table.dropped());
            int nextId = table.nextColumnId();
            boolean changed = false;
            for (Statement.ColumnDefinition d : add.columns()) {
                if (table.column(d.name()) != null) {
                    if (add.ifNotExists()) continue;
                    throw new InvalidRequestException("Column with name '" + d.name() + "' already exists");
                }
                CqlType type = CqlTypes.parse(d.type(), TypeStatements.resolver(ks));
                CqlTypes.checkDepth(type, "The type of column " + d.name());
                if (d.isStatic() && table.clustering().isEmpty()) {
                    throw new InvalidRequestException("Static columns are only useful (and thus allowed) if the table has at least one clustering column");
                }
                boolean counter = type.kind() == CqlType.Kind.COUNTER;
                if (counter && !table.isCounter()) throw new InvalidRequestException("Cannot add a counter column (" + d.name() + ") in a non counter column family");
                if (!counter && table.isCounter()) throw new InvalidRequestException("Cannot add a non counter column (" + d.name() + ") in a counter column family");
                dropped.remove(d.name());
                columns.add(new ColumnMetadata(d.name(), nextId++, d.isStatic() ? ColumnMetadata.Kind.STATIC : ColumnMetadata.Kind.REGULAR, -1, type, false));
                changed = true;
            }
            return changed ? table.withColumns(columns, dropped, nextId) : table;
        }
        if (action instanceof Statement.DropColumns drop) {
            List<ColumnMetadata> columns = new ArrayList<>(table.columns());
            Map<String, DroppedColumn> dropped = new LinkedHashMap<>(table.dropped());
            boolean changed = false;
            for (String name : drop.columns()) {
                ColumnMetadata c = table.column(name);
                if (c == null) {
                    if (drop.ifExists()) continue;
                    throw new InvalidRequestException("Column " + name + " was not found in table " + table.name());
                }
                if (c.isPrimaryKey()) throw new InvalidRequestException("Cannot drop PRIMARY KEY column " + name);
                IndexStatements.checkNoDependentIndexes(table, name, "drop");
                columns.remove(c);
                dropped.put(name, new DroppedColumn(name, c.type().freeze().cqlName(), c.kind().schemaName(), nowMicros));
                changed = true;
            }
            return changed ? table.withColumns(columns, dropped, table.nextColumnId()) : table;
        }
        if (action instanceof Statement.RenameColumns rename) {
            List<ColumnMetadata> columns = new ArrayList<>(table.columns());
            boolean changed = false;
            for (int i = 0; i < rename.from().size(); i++) {
                String from = rename.from().get(i);
                String to = rename.to().get(i);
                ColumnMetadata c = findColumn(columns, from);
                if (c == null) {
                    if (rename.ifExists()) continue;
                    throw new InvalidRequestException("Column with name '" + from + "' was not found in table " + table.name());
                }
                if (!c.isPrimaryKey()) {
                    throw new InvalidRequestException("Cannot rename non PRIMARY KEY column " + from);
                }
                IndexStatements.checkNoDependentIndexes(table, from, "rename");
                if (findColumn(columns, to) != null) {
                    throw new InvalidRequestException("Cannot rename column " + from + " to " + to + " in table " + table.name()
                            + "; another column with that name already exists");
                }
                columns.set(columns.indexOf(c), c.withName(to));
                changed = true;
            }
            return changed ? table.withColumns(columns, table.dropped(), table.nextColumnId()) : table;
        }
        if (action instanceof Statement.SetTableOptions options) {
            if (options.properties().values().containsKey("id")) throw new ConfigurationException("Cannot alter table id.");
            TableParams params = table.params().with(options.properties().values());
            if (table.isCounter() && params.defaultTimeToLive() > 0) {
                throw new InvalidRequestException("Cannot set default_time_to_live on a table with counters");
            }
            return params.equals(table.params()) ? table : table.withParams(params);
        }
        if (action instanceof Statement.DropCompactStorage) {
            // Cassandra 5.0's default (drop_compact_storage_enabled: false); Ballot has no compact tables anyway
            throw new InvalidRequestException("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.");
        }
        if (action instanceof Statement.AlterColumnType) {
            throw new InvalidRequestException("Altering column types is no longer supported");
        }
        throw new IllegalStateException("unknown ALTER TABLE action " + action);
    }

    private static ColumnMetadata findColumn(List<ColumnMetadata> columns, String name) {
        for (ColumnMetadata c : columns) if (c.name().equals(name)) return c;
        return null;
    }

    static SchemaStatement drop(Statement.DropTable s, String keyspace) {
        SchemaStatement.checkUserKeyspace(keyspace);
        String name = s.name().name();
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = current.get(keyspace);
                if (ks == null || ks.table(name) == null) {
                    if (s.ifExists()) return current;
                    if (ks == null) throw new InvalidRequestException("Keyspace '" + keyspace + "' doesn't exist");
                    throw new InvalidRequestException("Table '" + keyspace + "." + name + "' doesn't exist");
                }
                return with(current, ks.withoutTable(name));
            }

            SchemaChange change() {
                return SchemaChange.table(SchemaChange.Change.DROPPED, keyspace, name);
            }
        };
    }
}

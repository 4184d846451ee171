package ballot.cql.statement;

import ballot.cql.data.TimeUuids;
import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.parse.Properties;
import ballot.cql.parse.Statement;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.TableParams;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.TypeCompatibility;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/** CREATE, ALTER and DROP TABLE. */
final class TableStatements {
    private TableStatements() {}

    /** {@code nowMillis} is read when the statement runs, for the id of the table (unless it names one). */
    static SchemaStatement create(Statement.CreateTable s, String keyspace, LongSupplier nowMillis) {
        SchemaStatement.checkUserKeyspace(keyspace);
        checkTableName(keyspace, s.name().name());
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
                // a new time-based id is unused; one the statement gives may not be
                if (requestedId != null) checkUnusedId(current, requestedId);
                UUID id = requestedId != null ? requestedId : TimeUuids.next(nowMillis.getAsLong());
                return with(current, ks.withTable(build(s, ks, id)));
            }

            SchemaChange change() {
                return SchemaChange.table(SchemaChange.Change.CREATED, keyspace, s.name().name());
            }
        };
    }

    /** Cassandra's rules for a new table's name: the characters first, then the length. */
    private static void checkTableName(String keyspace, String name) {
        String prefix = keyspace + "." + name + ": ";
        if (name.isEmpty() || !SchemaStatement.NAME.matcher(name).matches()) {
            throw new ConfigurationException(prefix + "Table name must not be empty or not contain non-alphanumeric-underscore characters (got \""
                    + name + "\")");
        }
        if (name.length() > SchemaStatement.TABLE_NAME_MAX) {
            throw new ConfigurationException(prefix + "Table name must not be more than " + SchemaStatement.TABLE_NAME_MAX
                    + " characters long (got " + name.length() + " characters for \"" + name + "\")");
        }
    }

    /** A table's id names its data: no two tables may share one (Cassandra fails such a CREATE with a server error). */
    private static void checkUnusedId(Map<String, KeyspaceMetadata> current, UUID id) {
        for (KeyspaceMetadata ks : current.values()) {
            for (TableMetadata t : ks.tables().values()) {
                if (t.id().equals(id)) throw new InvalidRequestException("Table id " + id + " is already used by table " + t);
            }
        }
    }

    /** The id the statement gives the table (WITH id = ...), or null. */
    private static UUID requestedId(Properties properties) {
        Object id = properties.values().get("id");
        if (id == null) return null;
        try {
            return UUID.fromString(id.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("Invalid table id");
        }
    }

    static TableMetadata build(Statement.CreateTable s, KeyspaceMetadata ks, UUID id) {
        String table = s.name().name();
        String qualified = ks.name() + "." + table;
        UserTypeResolver types = TypeStatements.resolver(ks);
        Map<String, Statement.ColumnDefinition> definitions = new LinkedHashMap<>();
        for (Statement.ColumnDefinition d : s.columns()) {
            if (definitions.put(d.name(), d) != null) {
                throw new InvalidRequestException("Duplicate column '" + d.name() + "' declaration for table '" + qualified + "'");
            }
        }
        if (s.primaryKeys() != 1) {
            throw new InvalidRequestException((s.primaryKeys() == 0 ? "No PRIMARY KEY specifed" : "Multiple PRIMARY KEY specified")
                    + " for table '" + qualified + "' (exactly one required)");
        }
        Map<String, Boolean> order = clusteringOrder(s, qualified);
        List<ColumnMetadata> columns = new ArrayList<>();
        int nextId = 0;
        List<String> keyNames = new ArrayList<>(s.partitionKey());
        keyNames.addAll(s.clustering());
        for (String key : keyNames) {
            if (!definitions.containsKey(key)) {
                throw new InvalidRequestException("Unknown column '" + key + "' referenced in PRIMARY KEY for table '" + table + "'");
            }
            if (keyNames.indexOf(key) != keyNames.lastIndexOf(key)) {
                throw new InvalidRequestException("Duplicate column '" + key + "' in PRIMARY KEY clause for table '" + table + "'");
            }
        }
        boolean hasCounter = false;
        boolean hasNonCounter = false;
        for (Statement.ColumnDefinition d : s.columns()) {
            CqlType type = CqlTypes.parse(d.type(), types);
            CqlTypes.checkDepth(type, "The type of column " + d.name());
            if (hasNonFrozenCollectionInNonFrozenUserType(type)) {
                throw new InvalidRequestException("Non-frozen UDTs with nested non-frozen collections are not supported");
            }
            int pk = s.partitionKey().indexOf(d.name());
            int ck = s.clustering().indexOf(d.name());
            ColumnMetadata.Kind kind = pk >= 0 ? ColumnMetadata.Kind.PARTITION_KEY : ck >= 0 ? ColumnMetadata.Kind.CLUSTERING
                    : d.isStatic() ? ColumnMetadata.Kind.STATIC : ColumnMetadata.Kind.REGULAR;
            if (pk >= 0 || ck >= 0) {
                if (d.isStatic()) throw new InvalidRequestException("Static column " + d.name() + " cannot be part of the PRIMARY KEY");
                checkKeyType(ks.name(), d.name(), type);
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

    /**
     * The clustering order the statement declares, by column, as Cassandra checks it: no column twice, only clustering
     * columns, and if any, every clustering column in key order.
     */
    private static Map<String, Boolean> clusteringOrder(Statement.CreateTable s, String qualified) {
        Map<String, Boolean> order = new LinkedHashMap<>();
        for (Properties.Ordering o : s.properties().clusteringOrder()) {
            if (order.put(o.column(), o.descending()) != null) {
                throw new InvalidRequestException("Duplicate column '" + o.column() + "' in CLUSTERING ORDER BY clause for table '" + qualified + "'");
            }
        }
        List<String> notClustering = order.keySet().stream().filter(c -> !s.clustering().contains(c)).toList();
        if (!notClustering.isEmpty()) {
            throw new InvalidRequestException("Only clustering key columns can be defined in CLUSTERING ORDER directive: " + notClustering
                    + " are not clustering columns");
        }
        if (order.isEmpty()) return order;
        for (String c : s.clustering()) {
            if (!order.containsKey(c)) throw new InvalidRequestException("Missing CLUSTERING ORDER for column " + c);
        }
        List<String> ordered = List.copyOf(order.keySet());
        for (int i = 0; i < ordered.size(); i++) {
            if (!ordered.get(i).equals(s.clustering().get(i))) {
                throw new InvalidRequestException("The order of columns in the CLUSTERING ORDER directive must match that of the "
                        + "clustering columns (" + s.clustering().get(i) + " must appear before " + ordered.get(i) + ")");
            }
        }
        return order;
    }

    /** Cassandra stores a non-frozen user type field by field, and cannot so store a non-frozen collection in one. */
    private static boolean hasNonFrozenCollectionInNonFrozenUserType(CqlType type) {
        return type instanceof UserType u && u.isMultiCell() && u.fieldTypes().stream().anyMatch(CqlType::isMultiCell);
    }

    private static void checkKeyType(String keyspace, String name, CqlType type) {
        if (type.kind() == CqlType.Kind.COUNTER) throw new InvalidRequestException("counter type is not supported for PRIMARY KEY column '" + name + "'");
        if (type.referencesDuration()) throw new InvalidRequestException("duration type is not supported for PRIMARY KEY column '" + name + "'");
        if (type.isMultiCell()) {
            String what = type.kind() == CqlType.Kind.UDT
                    ? "user-defined type \"" + keyspace + "." + type.cqlName() + "\""
                    : "collection type " + type.cqlName();
            throw new InvalidRequestException("Invalid non-frozen " + what + " for PRIMARY KEY column '" + name + "'");
        }
    }

    /** {@code nowMillis} is read when the statement runs, for the time a column is dropped at. */
    static SchemaStatement alter(Statement.AlterTable s, String keyspace, LongSupplier nowMillis) {
        SchemaStatement.checkUserKeyspace(keyspace);
        String name = s.name().name();
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = current.get(keyspace);
                TableMetadata table = ks == null ? null : ks.table(name);
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
            int nextId = table.nextColumnId();
            boolean changed = false;
            for (Statement.ColumnDefinition d : add.columns()) {
                if (findColumn(columns, d.name()) != null) {
                    if (add.ifNotExists()) continue;
                    throw new InvalidRequestException("Column with name '" + d.name() + "' already exists");
                }
                CqlType type = CqlTypes.parse(d.type(), TypeStatements.resolver(ks));
                CqlTypes.checkDepth(type, "The type of column " + d.name());
                if (hasNonFrozenCollectionInNonFrozenUserType(type)) {
                    throw new InvalidRequestException("Non-frozen UDTs with nested non-frozen collections are not supported for column " + d.name());
                }
                if (d.isStatic() && table.clustering().isEmpty()) {
                    throw new InvalidRequestException("Static columns are only useful (and thus allowed) if the table has at least one clustering column");
                }
                boolean counter = type.kind() == CqlType.Kind.COUNTER;
                if (counter != table.isCounter()) {
                    throw new ConfigurationException(table + ": Cannot have a" + (counter ? "" : " non") + " counter column (\"" + d.name()
                            + "\") in a" + (counter ? " non" : "") + " counter table");
                }
                checkReAdd(table.dropped().get(d.name()), d, type, ks);
                columns.add(new ColumnMetadata(d.name(), nextId++, d.isStatic() ? ColumnMetadata.Kind.STATIC : ColumnMetadata.Kind.REGULAR, -1, type, false));
                changed = true;
            }
            // a re-added column stays in the dropped ones: what it wrote before stays deleted
            return changed ? table.withColumns(columns, table.dropped(), nextId) : table;
        }
        if (action instanceof Statement.DropColumns drop) {
            long droppedAt = drop.timestamp() == null ? nowMicros : droppedAt(drop.timestamp());
            List<ColumnMetadata> columns = new ArrayList<>(table.columns());
            Map<String, DroppedColumn> dropped = new LinkedHashMap<>(table.dropped());
            boolean changed = false;
            for (String name : drop.columns()) {
                ColumnMetadata c = table.column(name);
                if (c == null) {
                    if (drop.ifExists()) continue;
                    throw new InvalidRequestException("Column " + name + " was not found in table '" + table + "'");
                }
                if (c.isPrimaryKey()) throw new InvalidRequestException("Cannot drop PRIMARY KEY column " + name);
                if (c.type() instanceof UserType u && u.isMultiCell()) {
                    throw new InvalidRequestException("Cannot drop non-frozen column " + name + " of user type " + u.name());
                }
                IndexStatements.checkNoDependentIndexes(table, name, "Cannot drop");
                columns.remove(c);
                dropped.put(name, new DroppedColumn(name, CqlTypes.withoutUserTypes(c.type()).cqlName(), c.kind().schemaName(), droppedAt));
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
                // Cassandra 5.0 refuses an unknown column so even with IF EXISTS
                if (c == null) throw new InvalidRequestException("Undefined column name " + from + " in table " + table);
                if (!c.isPrimaryKey()) {
                    throw new InvalidRequestException("Cannot rename non PRIMARY KEY column " + from);
                }
                IndexStatements.checkNoDependentIndexes(table, from, "Can't rename");
                if (findColumn(columns, to) != null) {
                    throw new InvalidRequestException("Cannot rename column " + from + " to " + to + " in table '" + table
                            + "'; another column with that name already exists");
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

    /** The time DROP ... USING TIMESTAMP gives, in micros (an integer literal, as Cassandra's grammar takes). */
    private static long droppedAt(Term timestamp) {
        String text = ((Term.Constant) timestamp).text();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new SyntaxException("Invalid timestamp " + text);
        }
    }

    /**
     * A column may be added again under a dropped one's name only with a type compatible with the dropped one's and as
     * the same kind (static or regular), as in Cassandra. The dropped column stays recorded, as Cassandra keeps it
     * (DESCRIBE WITH INTERNALS replays both).
     */
    private static void checkReAdd(DroppedColumn dropped, Statement.ColumnDefinition added, CqlType type, KeyspaceMetadata ks) {
        if (dropped == null) return;
        // A user type never reads the tuple its dropped namesake is recorded as, as in Cassandra
        CqlType droppedType = droppedType(dropped, ks);
        if (droppedType != null && !TypeCompatibility.isCompatibleWith(type, droppedType)) {
            throw new InvalidRequestException("Cannot add a column '" + added.name() + "' of type " + type.cqlName()
                    + ", incompatible with previously dropped column '" + added.name() + "' of type " + dropped.type());
        }
        String kind = added.isStatic() ? "static" : "regular";
        if (!dropped.kind().equals(kind)) {
            throw new InvalidRequestException("Cannot re-add previously dropped column '" + added.name() + "' of kind " + kind.toUpperCase(Locale.ROOT)
                    + ", incompatible with previous kind " + dropped.kind().toUpperCase(Locale.ROOT));
        }
    }

    /**
     * The type a dropped column is recorded with, user types as tuples; a record older than that may name a user type
     * dropped since: null then, and the re-added type is not checked against it.
     */
    private static CqlType droppedType(DroppedColumn dropped, KeyspaceMetadata ks) {
        try {
            return CqlTypes.parse(dropped.type(), TypeStatements.resolver(ks));
        } catch (InvalidRequestException e) {
            return null;
        }
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

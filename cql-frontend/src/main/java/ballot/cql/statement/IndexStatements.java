package ballot.cql.statement;

import ballot.cql.data.TimeUuids;
import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.index.StorageAttachedIndex;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.IndexTarget;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.SystemKeyspaceNames;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * CREATE INDEX and DROP INDEX, with Cassandra 5.0's checks in its order ({@code CreateIndexStatement},
 * {@code IndexAttributes}, {@code StorageAttachedIndex.validateOptions}). Both report their table as UPDATED, as
 * Cassandra does. docs/indexes.md.
 */
final class IndexStatements {
    private static final Pattern NON_WORD = Pattern.compile("\\W");
    private static final Pattern WORD = Pattern.compile("\\w+");

    /** Cassandra's SASI indexes, off by default in 5.0 (sasi_indexes_enabled: false), as they are in Ballot. */
    private static final String SASI_CLASS = "org.apache.cassandra.index.sasi.SASIIndex";

    private IndexStatements() {}

    static SchemaStatement create(Statement.CreateIndex s, String current, LongSupplier nowMillis) {
        String keyspace = s.table().keyspace() != null ? s.table().keyspace()
                : s.name() != null && s.name().keyspace() != null ? s.name().keyspace() : Preparer.keyspaceOf(s.table(), current);
        if (s.name() != null && s.name().keyspace() != null && !s.name().keyspace().equals(keyspace)) {
            throw new InvalidRequestException("Keyspace name '" + keyspace + "' doesn't match index name '" + s.table() + "'");
        }
        SchemaStatement.checkUserKeyspace(keyspace);
        String className = s.using() != null ? s.using() : StorageAttachedIndex.DEFAULT_NAME;
        if (className.equalsIgnoreCase(StorageAttachedIndex.LEGACY_NAME)) {
            throw new InvalidRequestException("Legacy secondary indexes (" + StorageAttachedIndex.LEGACY_NAME
                    + ") are not supported by Ballot; create a storage-attached index (USING 'sai')");
        }
        if (className.equals(SASI_CLASS)) throw new InvalidRequestException("SASI indexes are disabled. Enable in cassandra.yaml to use.");
        Map<String, String> options = options(s);
        String tableName = s.table().name();
        String indexName = s.name() == null ? null : s.name().name();
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> schema) {
                KeyspaceMetadata ks = schema.get(keyspace);
                if (ks == null) throw new InvalidRequestException("Keyspace '" + keyspace + "' doesn't exist");
                TableMetadata table = ks.table(tableName);
                if (table == null) throw new InvalidRequestException("Table '" + tableName + "' doesn't exist");
                if (indexName != null && ks.tableOfIndex(indexName) != null) {
                    if (s.ifNotExists()) return schema;
                    throw new InvalidRequestException("Index '" + indexName + "' already exists");
                }
                if (table.isCounter()) throw new InvalidRequestException("Secondary indexes on counter tables aren't supported");
                List<IndexTarget> targets = targets(table, s.targets());
                if (!isCustom(s) && targets.size() > 1) throw new InvalidRequestException("Only CUSTOM indexes support multiple columns");
                String name = indexName != null ? indexName : availableName(ks, tableName, targets);
                Map<String, String> all = new TreeMap<>(options);
                all.put(IndexMetadata.CLASS_NAME, className);
                all.put(IndexMetadata.TARGET, String.join(", ", targets.stream().map(IndexTarget::asCql).toList()));
                IndexMetadata index = new IndexMetadata(name, TimeUuids.next(nowMillis.getAsLong()), all);
                for (IndexMetadata existing : table.indexes()) {
                    if (existing.sameDefinition(index)) {
                        if (s.ifNotExists()) return schema;
                        throw new InvalidRequestException("Index " + name + " is a duplicate of existing index " + existing.name());
                    }
                }
                if (!WORD.matcher(name).matches()) throw new ConfigurationException("Illegal index name " + name);
                if (!StorageAttachedIndex.isClass(className)) {
                    throw new ConfigurationException("Unable to find custom indexer class '" + className + "'");
                }
                if (targets.size() > 1) {
                    throw new InvalidRequestException("A storage-attached index cannot be created over multiple columns: " + all.get(IndexMetadata.TARGET));
                }
                List<IndexMetadata> indexes = new ArrayList<>(table.indexes());
                indexes.add(index);
                TableMetadata indexed = table.withIndexes(indexes);
                StorageAttachedIndex.validate(indexed, index);
                return SchemaStatement.with(schema, ks.withTable(indexed));
            }

            SchemaChange change() {
                return SchemaChange.table(SchemaChange.Change.UPDATED, keyspace, tableName);
            }
        };
    }

    /** USING makes an index custom, with or without the CUSTOM keyword (Cassandra's grammar). */
    private static boolean isCustom(Statement.CreateIndex s) {
        return s.custom() || s.using() != null;
    }

    /** The OPTIONS map of WITH, the only property an index has ({@code IndexAttributes.validate}). */
    private static Map<String, String> options(Statement.CreateIndex s) {
        Map<String, String> options = new TreeMap<>();
        for (Map.Entry<String, Object> e : s.properties().values().entrySet()) {
            if (!e.getKey().equals("options")) throw new SyntaxException("Unknown property '" + e.getKey() + "'");
            if (!(e.getValue() instanceof Map<?, ?> map)) throw new SyntaxException("Invalid value for property 'options'. It should be a map.");
            map.forEach((k, v) -> options.put(k.toString(), v.toString()));
        }
        if (!isCustom(s) && !s.properties().values().isEmpty()) {
            throw new InvalidRequestException("Cannot specify options for a non-CUSTOM index");
        }
        for (String reserved : List.of(IndexMetadata.CLASS_NAME, IndexMetadata.TARGET)) {
            if (options.containsKey(reserved)) throw new InvalidRequestException("Cannot specify " + reserved + " as a CUSTOM option");
        }
        return options;
    }

    private static List<IndexTarget> targets(TableMetadata table, List<Statement.IndexedColumn> written) {
        if (written.isEmpty()) throw new InvalidRequestException("Only CUSTOM indexes can be created without specifying a target column");
        List<IndexTarget> targets = new ArrayList<>();
        Set<String> columns = new HashSet<>();
        for (Statement.IndexedColumn w : written) {
            ColumnMetadata column = Restrictions.column(table, w.column());
            IndexTarget.Type type = w.part().isEmpty() ? IndexTarget.Type.SIMPLE : IndexTarget.Type.valueOf(w.part().toUpperCase(Locale.ROOT));
            // As in Cassandra, a plain target on a collection (frozen or not) means its values.
            if (type == IndexTarget.Type.SIMPLE && column.type().isCollection()) type = IndexTarget.Type.VALUES;
            targets.add(new IndexTarget(column.name(), type));
            if (written.size() > 1 && !columns.add(column.name())) {
                throw new InvalidRequestException("Duplicate column '" + column.name() + "' in index target list");
            }
        }
        for (IndexTarget target : targets) validateTarget(table, target);
        return targets;
    }

    /** Cassandra's {@code CreateIndexStatement.validateIndexTarget}. */
    private static void validateTarget(TableMetadata table, IndexTarget target) {
        ColumnMetadata column = table.column(target.column());
        CqlType type = column.type();
        String name = column.name();
        if (type.referencesDuration()) {
            if (type.isCollection()) throw new InvalidRequestException("Secondary indexes are not supported on collections containing durations");
            if (type.kind() == CqlType.Kind.TUPLE) throw new InvalidRequestException("Secondary indexes are not supported on tuples containing durations");
            if (type.kind() == CqlType.Kind.UDT) throw new InvalidRequestException("Secondary indexes are not supported on UDTs containing durations");
            throw new InvalidRequestException("Secondary indexes are not supported on duration columns");
        }
        if (column.kind() == ColumnMetadata.Kind.PARTITION_KEY && table.partitionKey().size() == 1) {
            throw new InvalidRequestException("Cannot create secondary index on the only partition key column " + name);
        }
        boolean frozenCollection = type.isCollection() && !type.isMultiCell();
        if (frozenCollection && target.type() != IndexTarget.Type.FULL) {
            throw new InvalidRequestException("Cannot create " + target.type() + "() index on frozen column " + name
                    + ". Frozen collections are immutable and must be fully indexed by using the 'full(" + name + ")' modifier");
        }
        if (!frozenCollection && target.type() == IndexTarget.Type.FULL) {
            throw new InvalidRequestException("full() indexes can only be created on frozen collections");
        }
        if (!type.isCollection() && target.type() != IndexTarget.Type.SIMPLE) {
            throw new InvalidRequestException("Cannot create " + target.type() + "() index on " + name + ". Non-collection columns only support simple indexes");
        }
        boolean multiCellMap = type.kind() == CqlType.Kind.MAP && type.isMultiCell();
        if (!multiCellMap && (target.type() == IndexTarget.Type.KEYS || target.type() == IndexTarget.Type.ENTRIES)) {
            throw new InvalidRequestException("Cannot create index on " + target.type() + " of column " + name + " with non-map type");
        }
        if (type.kind() == CqlType.Kind.UDT && type.isMultiCell()) {
            throw new InvalidRequestException("Cannot create index on non-frozen UDT column " + name);
        }
    }

    /** {@code <table>_<column>_idx} without non-word characters, then {@code _1}, {@code _2}, ... while taken. */
    private static String availableName(KeyspaceMetadata ks, String table, List<IndexTarget> targets) {
        String base = NON_WORD.matcher(targets.size() == 1 ? table + "_" + targets.get(0).column() + "_idx" : table + "_idx").replaceAll("");
        if (ks.tableOfIndex(base) == null) return base;
        for (int i = 1; ; i++) {
            if (ks.tableOfIndex(base + "_" + i) == null) return base + "_" + i;
        }
    }

    static SchemaStatement drop(Statement.DropIndex s, String current) {
        String keyspace = Preparer.keyspaceOf(s.name(), current);
        if (SystemKeyspaceNames.ALL.contains(keyspace)) throw SchemaStatement.systemKeyspace(keyspace);
        String indexName = s.name().name();
        String[] table = new String[1];
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> schema) {
                KeyspaceMetadata ks = schema.get(keyspace);
                TableMetadata indexed = ks == null ? null : ks.tableOfIndex(indexName);
                if (indexed == null) {
                    if (s.ifExists()) return schema;
                    throw new InvalidRequestException("Index '" + keyspace + "." + indexName + "' doesn't exist'");
                }
                table[0] = indexed.name();
                List<IndexMetadata> indexes = new ArrayList<>(indexed.indexes());
                indexes.removeIf(i -> i.name().equals(indexName));
                return SchemaStatement.with(schema, ks.withTable(indexed.withIndexes(indexes)));
            }

            SchemaChange change() {
                return SchemaChange.table(SchemaChange.Change.UPDATED, keyspace, table[0]);
            }
        };
    }

    /** Cassandra refuses to drop or rename a column an index depends on; the message ({@code action}: "Cannot drop", "Can't rename") names the indexes. */
    static void checkNoDependentIndexes(TableMetadata table, String column, String action) {
        List<String> dependent = new ArrayList<>();
        for (IndexMetadata index : table.indexes()) if (index.target().column().equals(column)) dependent.add(index.name());
        if (!dependent.isEmpty()) {
            throw new InvalidRequestException(action + " column " + column + " because it has dependent secondary indexes ("
                    + String.join(", ", dependent) + ")");
        }
    }
}

package ballot.cql.describe;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Server-side DESCRIBE (Cassandra 4.0+, which cqlsh 6 relies on): prepares every form the parser accepts into a
 * statement whose rows are computed from the schema when it runs. Output, ordering and error messages follow
 * Cassandra 5.0's {@code DescribeStatement}; see package-info for the details and where each was observed.
 */
public final class DescribeStatements implements Preparer.Describer {
    private static final String KEYSPACE = "system";
    private static final String TABLE = "describe";
    private static final String SNITCH = "DynamicEndpointSnitch";
    private static final String PARTITIONER_PACKAGE = "org.apache.cassandra.dht.";

    /** Columns of the forms that list names: DESCRIBE KEYSPACES, TABLES, TYPES, FUNCTIONS, AGGREGATES. */
    private static final List<ColumnSpec> LISTING = List.of(text("keyspace_name"), text("type"), text("name"));

    /** Columns of the forms that print create statements. */
    private static final List<ColumnSpec> ELEMENT = List.of(text("keyspace_name"), text("type"), text("name"), text("create_statement"));

    /** {@code map<text, list<text>>} on the wire; the list is frozen here only because Ballot's map type requires it. */
    private static final CqlType RANGE_OWNERSHIP = CqlTypes.map(CqlTypes.TEXT, CqlTypes.list(CqlTypes.TEXT, true), false);

    private final TokenRing ring;

    public DescribeStatements(TokenRing ring) {
        this.ring = ring;
    }

    /**
     * Prepares {@code describe} for a session whose keyspace is {@code current} (null if none). The statement keeps
     * that keyspace, as every prepared statement keeps the keyspace it was prepared in; names are looked up when it
     * runs.
     */
    @Override
    public CqlStatement prepare(Statement.Describe describe, String current) {
        boolean internals = describe.withInternals();
        String named = describe.name() == null ? null : describe.name().name();
        String namedKeyspace = describe.name() == null ? null : describe.name().keyspace();
        return switch (describe.kind()) {
            case CLUSTER -> cluster(current);
            case KEYSPACES -> listing(schema -> SchemaElements.keyspaces(schema).map(SchemaElements::of));
            case TABLES -> listing(schema -> inScope(schema, current).flatMap(SchemaElements::tables));
            case TYPES -> listing(schema -> inScope(schema, current).flatMap(SchemaElements::types));
            // Ballot has no user-defined functions or aggregates; the keyspace in use is still checked.
            case FUNCTIONS, AGGREGATES -> listing(schema -> inScope(schema, current).flatMap(ks -> Stream.empty()));
            case KEYSPACE -> elements(internals, schema -> SchemaElements.keyspaceContents(
                    SchemaElements.keyspace(schema, SchemaElements.keyspaceName(named, current)), describe.onlyKeyspace()));
            case SCHEMA, FULL_SCHEMA -> {
                boolean full = describe.kind() == Statement.DescribeKind.FULL_SCHEMA;
                yield elements(internals, schema -> SchemaElements.keyspaces(schema)
                        .filter(ks -> full || !SchemaElements.isSystem(ks.name()))
                        .flatMap(ks -> SchemaElements.keyspaceContents(ks, false)));
            }
            case TABLE -> elements(internals, schema -> table(schema, SchemaElements.keyspaceName(namedKeyspace, current), named));
            case TYPE -> elements(internals, schema -> {
                KeyspaceMetadata ks = SchemaElements.keyspace(schema, SchemaElements.keyspaceName(namedKeyspace, current));
                CqlType type = ks.type(named);
                if (type == null) throw notFound("User defined type '%s' not found in '%s'", named, ks);
                return Stream.of(SchemaElements.of((UserType) type));
            });
            case FUNCTION -> missing(internals, "User defined function '%s' not found in '%s'", namedKeyspace, named, current);
            case AGGREGATE -> missing(internals, "User defined aggregate '%s' not found in '%s'", namedKeyspace, named, current);
            case INDEX -> elements(internals, schema -> {
                KeyspaceMetadata ks = SchemaElements.keyspace(schema, SchemaElements.keyspaceName(namedKeyspace, current));
                TableMetadata table = ks.tableOfIndex(named);
                if (table == null) throw notFound("Table for existing index '%s' not found in '%s'", named, ks);
                return Stream.of(SchemaElements.of(table, table.index(named)));
            });
            case MATERIALIZED_VIEW -> missing(internals, "Materialized view '%s' not found in '%s'", namedKeyspace, named, current);
            case GENERIC -> elements(internals, schema -> generic(schema, namedKeyspace, named, current));
        };
    }

    /** The keyspace in use, or every keyspace in name order when there is none. */
    private static Stream<KeyspaceMetadata> inScope(Schema schema, String current) {
        return current == null ? SchemaElements.keyspaces(schema) : Stream.of(SchemaElements.keyspace(schema, current));
    }

    /** DESCRIBE TABLE: the table, then its indexes. Views are not tables here. */
    private static Stream<SchemaElement> table(Schema schema, String keyspace, String name) {
        KeyspaceMetadata ks = SchemaElements.keyspace(schema, keyspace);
        TableMetadata table = ks.table(name);
        if (table == null) throw notFound("Table '%s' not found in keyspace '%s'", name, ks);
        return SchemaElements.tableWithIndexes(table);
    }

    /**
     * {@code DESCRIBE name}: a keyspace of that name (if none was given), else a table, index or view of that name in
     * the given keyspace, the keyspace in use, or (with neither) the keyspace called {@code name}.
     */
    private static Stream<SchemaElement> generic(Schema schema, String namedKeyspace, String name, String current) {
        String keyspace = namedKeyspace;
        if (keyspace == null) {
            KeyspaceMetadata ks = schema.keyspace(name);
            if (ks != null) return SchemaElements.keyspaceContents(ks, false);
            keyspace = current == null ? name : current;
        }
        KeyspaceMetadata ks = SchemaElements.keyspace(schema, keyspace);
        if (ks.table(name) != null) return table(schema, keyspace, name);
        TableMetadata indexed = ks.tableOfIndex(name);
        if (indexed != null) return Stream.of(SchemaElements.of(indexed, indexed.index(name)));
        throw notFound("'%s' not found in keyspace '%s'", name, ks);
    }

    /** A form naming an element kind Ballot does not have: after the keyspace is checked, it is never found. */
    private static CqlStatement missing(boolean internals, String message, String namedKeyspace, String name, String current) {
        return elements(internals, schema -> {
            KeyspaceMetadata ks = SchemaElements.keyspace(schema, SchemaElements.keyspaceName(namedKeyspace, current));
            throw notFound(message, name, ks);
        });
    }

    private static InvalidRequestException notFound(String message, String name, KeyspaceMetadata ks) {
        return new InvalidRequestException(String.format(message, name, ks.name()));
    }

    private static CqlStatement listing(Function<Schema, Stream<SchemaElement>> elements) {
        return new DescribeStatement(LISTING, (schema, node) -> elements.apply(schema).map(e -> e::listingRow));
    }

    private static CqlStatement elements(boolean internals, Function<Schema, Stream<SchemaElement>> elements) {
        return new DescribeStatement(ELEMENT, (schema, node) -> elements.apply(schema).map(e -> () -> e.elementRow(internals)));
    }

    /**
     * DESCRIBE CLUSTER: cluster name, partitioner and snitch (class names without Cassandra's package, the snitch
     * being the dynamic wrapper Cassandra always reports), plus the token ranges' owners when a non-system keyspace
     * is in use.
     */
    private CqlStatement cluster(String current) {
        boolean withRanges = current != null && !SchemaElements.isSystem(current);
        List<ColumnSpec> columns = new ArrayList<>(List.of(text("cluster"), text("partitioner"), text("snitch")));
        if (withRanges) columns.add(new ColumnSpec(KEYSPACE, TABLE, "range_ownership", RANGE_OWNERSHIP));
        return new DescribeStatement(columns, (schema, node) -> Stream.of(() -> {
            String partitioner = node.partitioner().startsWith(PARTITIONER_PACKAGE)
                    ? node.partitioner().substring(PARTITIONER_PACKAGE.length()) : node.partitioner();
            List<ByteBuffer> row = new ArrayList<>(List.of(CqlTypes.TEXT.decompose(node.clusterName()),
                    CqlTypes.TEXT.decompose(partitioner), CqlTypes.TEXT.decompose(SNITCH)));
            if (withRanges) row.add(RANGE_OWNERSHIP.decompose(ring.rangeOwnership(current)));
            return row.toArray(ByteBuffer[]::new);
        }));
    }

    private static ColumnSpec text(String name) {
        return new ColumnSpec(KEYSPACE, TABLE, name, CqlTypes.TEXT);
    }
}

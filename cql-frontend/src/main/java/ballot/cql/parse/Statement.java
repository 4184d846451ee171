package ballot.cql.parse;

import ballot.cql.access.Permission;
import java.util.List;

/** A parsed CQL statement: syntax only, not yet checked against the schema. */
public sealed interface Statement {
    /** USING TTL / TIMESTAMP of a modification, and ScyllaDB's USING TIMEOUT; null terms mean "not given". */
    record Attributes(Term ttl, Term timestamp, Term timeout) {
        public static final Attributes NONE = new Attributes(null, null, null);

        public Attributes(Term ttl, Term timestamp) {
            this(ttl, timestamp, null);
        }
    }

    /** Statements that may appear inside a BATCH. */
    sealed interface Modification extends Statement {
        QualifiedName table();

        Attributes attributes();

        boolean ifExists();

        boolean ifNotExists();

        List<Condition> conditions();

        default boolean isConditional() {
            return ifExists() || ifNotExists() || !conditions().isEmpty();
        }
    }

    record Use(String keyspace) implements Statement {}

    /** CREATE ROLE, or with {@code user} CREATE USER (a role that logs in). */
    record CreateRole(String name, boolean ifNotExists, RoleOptions options, boolean user) implements Statement {}

    /** ALTER ROLE, or with {@code user} ALTER USER. */
    record AlterRole(String name, RoleOptions options, boolean user) implements Statement {}

    /** DROP ROLE, or with {@code user} DROP USER. */
    record DropRole(String name, boolean ifExists, boolean user) implements Statement {}

    /**
     * {@code DROP MATERIALIZED VIEW|FUNCTION|AGGREGATE|TRIGGER IF EXISTS ...}: Ballot has none of these, so nothing is
     * dropped. {@code name} is the object's, or for a trigger its table's: its keyspace must still be known.
     */
    record DropNothing(String kind, QualifiedName name) implements Statement {}

    /** GRANT {@code role} TO {@code member}, or with {@code revoke} REVOKE {@code role} FROM {@code member}. */
    record GrantRole(String role, String member, boolean revoke) implements Statement {}

    /** LIST ROLES [OF {@code of}] [NORECURSIVE], or with {@code users} LIST USERS. */
    record ListRoles(String of, boolean recursive, boolean users) implements Statement {}

    /** What GRANT, REVOKE and LIST PERMISSIONS name: data (all keyspaces, a keyspace, a table) or roles (all, one). */
    sealed interface ResourceName {
        record AllKeyspaces() implements ResourceName {}

        record Keyspace(String name) implements ResourceName {}

        /** [TABLE] [ks.]t: in the client's keyspace unless it names one. */
        record Table(QualifiedName name) implements ResourceName {}

        record AllRoles() implements ResourceName {}

        record Role(String name) implements ResourceName {}
    }

    /**
     * GRANT {@code permission} ON {@code on} TO {@code role}, or with {@code revoke} REVOKE ... FROM; {@code permission}
     * null is ALL [PERMISSIONS]: those that apply to the resource.
     */
    record GrantPermission(Permission permission, ResourceName on, String role, boolean revoke) implements Statement {}

    /**
     * LIST {@code permission} (null: ALL) [ON {@code on}] [OF {@code of}] [NORECURSIVE]; {@code on} and {@code of} null
     * when not given. Without NORECURSIVE the resources above {@code on} are listed too.
     */
    record ListPermissions(Permission permission, ResourceName on, String of, boolean recursive) implements Statement {}

    record CreateKeyspace(String name, boolean ifNotExists, Properties properties) implements Statement {}

    record AlterKeyspace(String name, boolean ifExists, Properties properties) implements Statement {}

    record DropKeyspace(String name, boolean ifExists) implements Statement {}

    record ColumnDefinition(String name, String type, boolean isStatic) {}

    /**
     * {@code primaryKeys} counts the PRIMARY KEY declarations, inline or not: exactly one is valid, which is checked
     * once the keyspace is known, for the refusal to name the table; {@code partitionKey} and {@code clustering} are
     * the first one's.
     */
    record CreateTable(QualifiedName name, boolean ifNotExists, List<ColumnDefinition> columns,
            List<String> partitionKey, List<String> clustering, int primaryKeys, Properties properties) implements Statement {}

    sealed interface AlterTableAction {}

    record AddColumns(List<ColumnDefinition> columns, boolean ifNotExists) implements AlterTableAction {}

    record DropColumns(List<String> columns, boolean ifExists, Term timestamp) implements AlterTableAction {}

    record RenameColumns(List<String> from, List<String> to, boolean ifExists) implements AlterTableAction {}

    record AlterColumnType(String column, String type) implements AlterTableAction {}

    record SetTableOptions(Properties properties) implements AlterTableAction {}

    record DropCompactStorage() implements AlterTableAction {}

    record AlterTable(QualifiedName name, boolean ifExists, AlterTableAction action) implements Statement {}

    record DropTable(QualifiedName name, boolean ifExists) implements Statement {}

    /** TRUNCATE, with ScyllaDB's USING TIMEOUT or null. */
    record Truncate(QualifiedName name, Term timeout) implements Statement {}

    /** An index target as written: {@code column}, or {@code part(column)} with part values, keys, entries or full. */
    record IndexedColumn(String column, String part) {}

    /**
     * CREATE [CUSTOM] INDEX; {@code name} is null when none is given, {@code using} when there is no USING clause.
     * The properties are those of WITH (OPTIONS = {...}).
     */
    record CreateIndex(QualifiedName table, QualifiedName name, List<IndexedColumn> targets, boolean custom, String using,
            Properties properties, boolean ifNotExists) implements Statement {}

    record DropIndex(QualifiedName name, boolean ifExists) implements Statement {}

    record CreateType(QualifiedName name, boolean ifNotExists, List<String> fieldNames, List<String> fieldTypes)
            implements Statement {}

    sealed interface AlterTypeAction {}

    record AddField(String name, String type, boolean ifNotExists) implements AlterTypeAction {}

    record RenameFields(List<String> from, List<String> to, boolean ifExists) implements AlterTypeAction {}

    record AlterType(QualifiedName name, boolean ifExists, AlterTypeAction action) implements Statement {}

    record DropType(QualifiedName name, boolean ifExists) implements Statement {}

    record Insert(QualifiedName table, List<String> columns, List<Term> values, boolean ifNotExists, Attributes attributes)
            implements Modification {
        public boolean ifExists() { return false; }
        public List<Condition> conditions() { return List.of(); }
    }

    record InsertJson(QualifiedName table, Term json, boolean defaultUnset, boolean ifNotExists, Attributes attributes)
            implements Modification {
        public boolean ifExists() { return false; }
        public List<Condition> conditions() { return List.of(); }
    }

    record Update(QualifiedName table, Attributes attributes, List<Assignment> assignments, List<Relation> where,
            boolean ifExists, List<Condition> conditions) implements Modification {
        public boolean ifNotExists() { return false; }
    }

    /** One target of DELETE: a whole column, a collection element ({@code c[key]}) or a UDT field ({@code c.f}). */
    record DeleteTarget(String column, Term elementKey, String field) {}

    record Delete(QualifiedName table, List<DeleteTarget> targets, Attributes attributes, List<Relation> where,
            boolean ifExists, List<Condition> conditions) implements Modification {
        public boolean ifNotExists() { return false; }
    }

    enum BatchType { LOGGED, UNLOGGED, COUNTER }

    record Batch(BatchType type, Attributes attributes, List<Modification> statements) implements Statement {}

    /**
     * Cassandra 6.0's transaction, the subset Ballot runs (docs/txn.md §11.2): {@code BEGIN TRANSACTION}, named reads of
     * one row each ({@code LET}), at most one returning SELECT, modifications under an optional {@code IF ... THEN ...
     * END IF}, {@code COMMIT TRANSACTION}. {@code conditions} is null when there is no IF.
     */
    record Transaction(List<Let> lets, Returning returning, List<TxnCondition> conditions, List<Modification> updates)
            implements Statement {}

    /** {@code LET name = (SELECT ...)}: the name is kept as written (Cassandra compares it case-sensitively). */
    record Let(String name, Select select) {}

    /** {@code name.column}, or the whole row of a LET ({@code column} null). */
    record RowReference(String let, String column) {
        @Override
        public String toString() {
            return column == null ? let : let + "." + column;
        }
    }

    /** What a transaction returns: the rows of a SELECT, or one row of LET values. */
    sealed interface Returning {}

    record ReturningSelect(Select select) implements Returning {}

    record ReturningReferences(List<RowReference> references) implements Returning {}

    /** One condition of a transaction's IF: {@code ref op value}, or {@code ref IS [NOT] NULL}. */
    sealed interface TxnCondition {
        RowReference reference();
    }

    record TxnComparison(RowReference reference, Operator op, Term value) implements TxnCondition {}

    record TxnNullness(RowReference reference, boolean isNull) implements TxnCondition {}

    /** One ORDER BY column; {@code annOf} is the vector of {@code c ANN OF vector} (Cassandra 5.0's ANN ordering), or null. */
    record Ordering(String column, boolean descending, Term annOf) {}

    /** A SELECT; {@code timeout} is ScyllaDB's USING TIMEOUT, or null. */
    record Select(QualifiedName table, boolean json, boolean distinct, List<Selector.Aliased> selectors,
            List<Relation> where, List<String> groupBy, List<Ordering> orderBy, Term perPartitionLimit, Term limit,
            boolean allowFiltering, Term timeout) implements Statement {
        /** True for {@code SELECT *}. */
        public boolean selectsAll() {
            return selectors.isEmpty();
        }
    }

    enum DescribeKind { CLUSTER, SCHEMA, FULL_SCHEMA, KEYSPACES, KEYSPACE, TABLES, TABLE, TYPES, TYPE, FUNCTIONS,
        FUNCTION, AGGREGATES, AGGREGATE, INDEX, MATERIALIZED_VIEW, GENERIC }

    /** Server-side DESCRIBE (Cassandra 4.0+), which cqlsh sends to the node. */
    record Describe(DescribeKind kind, QualifiedName name, boolean onlyKeyspace, boolean withInternals) implements Statement {}
}

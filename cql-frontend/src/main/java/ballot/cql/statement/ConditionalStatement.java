package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Condition;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.UserTypeResolver;
import java.util.ArrayList;
import java.util.List;

/**
 * A conditional INSERT, UPDATE or DELETE (IF NOT EXISTS, IF EXISTS, IF conditions): a compare-and-set on one row of
 * one partition, alone or with the other statements of a BATCH ({@link CasBatch}), run by the coordinator's
 * {@link ballot.cql.spi.DataCoordinator#cas}. Its conditions read its row, and the static row for conditions on static
 * columns. The answer is described in {@link CasResultRows}.
 */
final class ConditionalStatement implements ConditionalPart {
    enum Kind { IF_NOT_EXISTS, IF_EXISTS, CONDITIONS }

    private final ModificationStatement base;
    private final Kind kind;
    private final List<ColumnCondition> conditions;
    private final Markers markers;

    private ConditionalStatement(ModificationStatement base, Kind kind, List<ColumnCondition> conditions, Markers markers) {
        this.base = base;
        this.kind = kind;
        this.conditions = conditions;
        this.markers = markers;
    }

    static ConditionalStatement prepare(ModificationStatement base, Statement.Modification ast, Markers markers, UserTypeResolver types) {
        TableMetadata table = base.table();
        Kind kind = ast.ifNotExists() ? Kind.IF_NOT_EXISTS : ast.ifExists() ? Kind.IF_EXISTS : Kind.CONDITIONS;
        List<ColumnCondition> conditions = new ArrayList<>();
        // the conditions are checked first, as in Cassandra: one on a counter column or a key column is refused as such
        for (Condition c : ast.conditions()) conditions.add(ColumnCondition.of(table, c, markers, types));
        if (table.isCounter()) throw new InvalidRequestException("Conditional updates are not supported on counter tables");
        if (ast.attributes().timestamp() != null) throw new InvalidRequestException("Cannot provide custom timestamp for conditional updates");
        return new ConditionalStatement(base, kind, conditions, markers);
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
    public List<Integer> partitionKeyIndexes() {
        return PartitionKeyIndexes.of(base.table(), markers);
    }

    @Override
    public TableMetadata table() {
        return base.table();
    }

    /** Adds the write, then the conditions: existence of the row, or each IF condition on its row or the static row. */
    @Override
    public void addTo(CasBatch cas, QueryContext context) {
        Clustering row = cas.write(base, context, true);
        switch (kind) {
            case IF_NOT_EXISTS -> cas.conditions().requireExistence(row, false);
            case IF_EXISTS -> cas.conditions().requireExistence(row, true);
            case CONDITIONS -> { // regular columns' conditions first, as Cassandra lists their columns in a not-applied answer
                for (ColumnCondition c : conditions) if (!c.column().isStatic()) cas.conditions().require(row, c.column(), c.bind(context.bindings()));
                for (ColumnCondition c : conditions) {
                    if (c.column().isStatic()) cas.conditions().require(Clustering.STATIC, c.column(), c.bind(context.bindings()));
                }
            }
        }
    }
}

package ballot.cql.statement;

import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.StatementSource;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds, on any node, the compare-and-sets a transaction's statement submitted on its coordinator
 * (docs/txn.md §11.1, "Coordination"): the statements are prepared again from their text against this node's schema and
 * bound to the same values at the same time, which gives the same participants in the same order.
 */
public final class Participants {
    private Participants() {}

    public static List<CasRequest> rebuild(QueryEnvironment environment, Preparer preparer, StatementSource source) {
        List<CqlStatement> statements = new ArrayList<>(source.statements().size());
        for (StatementSource.Statement s : source.statements()) statements.add(preparer.prepare(s.cql(), source.keyspace()));
        if (source.batchType() == null) {
            StatementSource.Statement only = source.statements().get(0);
            QueryContext context = QueryContext.of(environment, source.keyspace(), options(source, only.values(), only.valueNames()),
                    statements.get(0));
            return statements.get(0).participants(context);
        }
        List<List<ByteBuffer>> values = new ArrayList<>();
        for (StatementSource.Statement s : source.statements()) values.add(s.values());
        return ProtocolBatch.participants(environment, statements, values, options(source, List.of(), null), source.keyspace());
    }

    private static QueryOptions options(StatementSource source, List<ByteBuffer> values, List<String> names) {
        return new QueryOptions(source.consistency(), values, names, false, -1, null, source.serial(), null, source.keyspace(),
                source.nowInSec());
    }
}

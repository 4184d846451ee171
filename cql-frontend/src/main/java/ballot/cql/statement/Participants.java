package ballot.cql.statement;

import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.StatementSource;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Rebuilds, on any node, the compare-and-sets a transaction's statement submitted on its coordinator
 * (docs/txn.md §11.1, "Coordination"): the statements are prepared again from their text against this node's schema and
 * bound to the same values at the same time, which gives the same participants in the same order. A statement is
 * prepared once per schema version: every step of every transaction of an application's statement brings the same
 * text, and preparing a {@code BEGIN TRANSACTION} is a parse of all of it.
 */
public final class Participants {
    /** Prepared statements kept; an application has a handful of transactional statements. */
    private static final int PREPARED_MAX = 1024;

    private record Key(UUID schemaVersion, String keyspace, String cql) {}

    private final QueryEnvironment environment;
    private final Preparer preparer;
    private final Cache<Key, CqlStatement> prepared = Caffeine.newBuilder().maximumSize(PREPARED_MAX).build();

    public Participants(QueryEnvironment environment, Preparer preparer) {
        this.environment = environment;
        this.preparer = preparer;
    }

    public List<CasRequest> rebuild(StatementSource source) {
        UUID version = environment.schemas().schema().version();
        List<CqlStatement> statements = new ArrayList<>(source.statements().size());
        for (StatementSource.Statement s : source.statements()) {
            statements.add(prepared.get(new Key(version, source.keyspace(), s.cql()), k -> preparer.prepare(k.cql(), k.keyspace())));
        }
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

package ballot.cql.statement;

import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.SchemaStore;
import ballot.cql.spi.Transactions;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * An in-memory schema on a one-data-center node (datacenter1), and the query environment and preparer over it: for DDL
 * alone, or with the data coordinators {@link CasFixture} provides. Write timestamps count up from 1; the clock stands
 * still.
 */
final class SchemaFixture implements SchemaStore {
    /** What the node's clock reads, in milliseconds. */
    static final long NOW_MILLIS = 1_700_000_000_000L;

    private Schema schema = new Schema(Map.of(), UUID.randomUUID());
    private long timestamp = 1;
    final QueryEnvironment environment;
    final Preparer preparer;

    /** No data: a statement that reads or writes it fails. */
    SchemaFixture() {
        this(null, null, null);
    }

    SchemaFixture(DataCoordinator data, LwtCoordinator lwt, Transactions transactions) {
        environment = new QueryEnvironment(data, lwt, transactions, this, () -> timestamp++, () -> NOW_MILLIS,
                new QueryEnvironment.NodeInfo("Test Cluster", "org.apache.cassandra.dht.Murmur3Partitioner", "datacenter1"));
        preparer = new Preparer(environment, (describe, keyspace) -> {
            throw new UnsupportedOperationException("no DESCRIBE here");
        });
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Schema update(UnaryOperator<Map<String, KeyspaceMetadata>> change) {
        schema = new Schema(change.apply(new TreeMap<>(schema.keyspaces())), UUID.randomUUID());
        return schema;
    }

    /** Runs {@code cql} with no keyspace in use; what a failed statement throws is thrown. */
    Result run(String cql) {
        CqlStatement statement = preparer.prepare(cql, null);
        return statement.execute(QueryContext.of(environment, null, QueryOptions.DEFAULT, statement)).join();
    }

    /** Puts {@code keyspace} in the schema as it is, as the node does with its system keyspaces. */
    void put(KeyspaceMetadata keyspace) {
        update(keyspaces -> {
            keyspaces.put(keyspace.name(), keyspace);
            return keyspaces;
        });
    }

    KeyspaceMetadata keyspace(String name) {
        return schema.keyspace(name);
    }

    TableMetadata table(String keyspace, String name) {
        return schema.table(keyspace, name);
    }
}

package ballot.cql.statement;

import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.SchemaStore;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** An in-memory schema on a one-data-center node (datacenter1), and DDL statements run against it. */
final class SchemaFixture implements SchemaStore {
    private Schema schema = new Schema(Map.of(), UUID.randomUUID());
    private final QueryEnvironment environment = new QueryEnvironment(null, null, null, this, () -> 1L, () -> 1_000L,
            new QueryEnvironment.NodeInfo("Test Cluster", "org.apache.cassandra.dht.Murmur3Partitioner", "datacenter1"));
    private final Preparer preparer = new Preparer(environment, (describe, keyspace) -> {
        throw new IllegalStateException("no DESCRIBE here");
    });

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

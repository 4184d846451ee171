package ballot.lwt;

import ballot.cql.data.PartitionKey;
import ballot.cql.schema.TableMetadata;

/**
 * A conditional statement or SERIAL read found a transaction's intent on its partition and did nothing
 * (docs/txn.md §11.1): the statement must run as a one-partition transaction, which waits for the intent's
 * transaction or recovers it. Never reaches a client.
 */
public final class IntentFound extends RuntimeException {
    private final transient TableMetadata table;
    private final transient PartitionKey key;

    public IntentFound(TableMetadata table, PartitionKey key) {
        super("a transaction holds partition " + key + " of " + table.keyspace() + "." + table.name(), null, false, false);
        this.table = table;
        this.key = key;
    }

    public TableMetadata table() {
        return table;
    }

    public PartitionKey key() {
        return key;
    }
}

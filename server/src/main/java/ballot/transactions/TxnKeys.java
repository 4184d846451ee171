package ballot.transactions;

import ballot.cql.data.PartitionKey;
import java.nio.ByteBuffer;
import java.util.UUID;

/** A transaction core's partition ({@link ballot.txn.PartitionKey}) is a table id and a CQL partition key's bytes. */
final class TxnKeys {
    private TxnKeys() {}

    static ballot.txn.PartitionKey of(UUID tableId, PartitionKey key) {
        ByteBuffer k = key.key();
        byte[] bytes = new byte[k.remaining()];
        k.duplicate().get(bytes);
        return ballot.txn.PartitionKey.of(tableId.toString(), bytes);
    }

    static UUID tableId(ballot.txn.PartitionKey key) {
        return UUID.fromString(key.table());
    }

    static PartitionKey partitionKey(ballot.txn.PartitionKey key) {
        return PartitionKey.of(ByteBuffer.wrap(key.key()));
    }
}

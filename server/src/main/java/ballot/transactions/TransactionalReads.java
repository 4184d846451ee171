package ballot.transactions;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.LwtCoordinator;
import ballot.lwt.TxnCell;
import ballot.replication.HeldPartitions;
import java.util.concurrent.CompletableFuture;

/**
 * Plain reads that honour transactions' locks (docs/txn.md §10): a partition the replicas show held by an intent is
 * read at SERIAL through {@link TransactionalLwt}, whose read waits for the intent's transaction to be decided (or
 * recovers it), rolls its writes forward, and then reads. Transactions' steps use SERIAL's electorate (§13), so the
 * read does as well, whatever the plain read's level.
 */
public final class TransactionalReads implements HeldPartitions {
    private final LwtCoordinator lwt;

    public TransactionalReads(LwtCoordinator lwt) {
        this.lwt = lwt;
    }

    /** Whether a stored transaction state ({@code timestamp(8) · state}) holds an intent: what replicas report. */
    public static boolean holdsIntent(byte[] stored) {
        return TxnStateCodec.holdsIntent(stored, TxnCell.STATE_OFFSET);
    }

    /**
     * Whether a stored transaction state ({@code timestamp(8) · state}) may need the transaction sweep: it holds an
     * intent or records (docs/txn.md §11.1). The storage follows such partitions, which the sweep then visits.
     */
    public static boolean mayAwaitSweep(byte[] stored) {
        return TxnStateCodec.mayNeedSweep(stored, TxnCell.STATE_OFFSET);
    }

    @Override
    public CompletableFuture<PartitionData> readResolved(TableMetadata table, PartitionKey key, ReadSpec spec) {
        return lwt.readSerial(table, key, spec, ConsistencyLevel.SERIAL);
    }
}

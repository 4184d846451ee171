package ballot.transactions;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionUpdate;

/**
 * A partition's value as the transaction core sees it on this server (docs/txn.md §11.1): what a Paxos query read of
 * its rows, or an update an operation will write, with timestamps relative to the decree that writes it (0 = the
 * decree's timestamp).
 */
sealed interface TxnValue {
    /** The participant's rows as the step's CAS read them. */
    record Read(PartitionData data) implements TxnValue {}

    /** An update to write when this value becomes the partition's committed value (an intent rolled forward, a 1PC). */
    record Write(PartitionUpdate update) implements TxnValue {}
}

package ballot.transactions;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.StatementSource;
import ballot.txn.Effect;
import ballot.txn.Operation;

/**
 * A participant's operation (docs/txn.md §1) made of a CQL compare-and-set on its partition: the rows it reads, its
 * condition, and the update it writes when the condition holds. The update is built at relative time 0 and written at
 * the timestamp of the decree that rolls it forward (§11.1). A condition that does not hold refuses with
 * {@link #CONDITION_NOT_MET}; a statement error (say, a list index out of bounds) refuses with
 * {@link #INVALID_PREFIX} and its message, which the client gets as the statement's error.
 *
 * @param index the participant's place among its transaction's participants
 * @param source what the client sent, from which another node rebuilds {@code request} (null: only this node can run it)
 * @param commit the consistency the client asked: the operation's placement or 1PC commits at it where it asks for at
 *     least a quorum, else at QUORUM ({@link PaxosPartitionCas#commitOfValues})
 */
record CqlOperation(CasRequest request, int index, StatementSource source, ConsistencyLevel commit) implements Operation<TxnValue> {
    static final String CONDITION_NOT_MET = "condition not met";
    static final String INVALID_PREFIX = "invalid: ";
    /** A refusal is kept in records and markers: a statement's message is cut to this many characters there. */
    private static final int MESSAGE_CHARS_MAX = 1000;

    @Override
    public Effect<TxnValue> apply(TxnValue current) {
        if (!(current instanceof TxnValue.Read read))
            throw new IllegalStateException("an operation evaluated on " + current + " instead of the rows it read");
        if (request.isRead()) return Effect.put(current);
        PartitionData data = read.data();
        PartitionUpdate update;
        try {
            update = request.apply(data, 0);
        } catch (InvalidRequestException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            return Effect.refuse(INVALID_PREFIX + (message.length() > MESSAGE_CHARS_MAX ? message.substring(0, MESSAGE_CHARS_MAX) : message));
        }
        return update == null ? Effect.refuse(CONDITION_NOT_MET) : Effect.put(new TxnValue.Write(update));
    }
}

package ballot.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.TransactionResult;
import ballot.cql.spi.Transactions;
import ballot.cql.statement.SchemaDefinitions;
import ballot.lwt.IntentFound;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A SERIAL read that meets a transaction's intent runs as a one-partition transaction (docs/txn.md §11.1). When that
 * transaction is decided by its record rather than by a read of its own, it has no rows to give: the read must then
 * read the partition again, not fail (it was a NullPointerException, a ServerError, under TransactionFaultIT's kills).
 */
class TransactionalLwtTest {
    private final TableMetadata table = SchemaDefinitions.table("ks", "CREATE TABLE t (k int PRIMARY KEY, v int)", UUID.randomUUID());
    private final PartitionKey key = PartitionKey.of(ByteBuffer.allocate(4).putInt(0, 1));
    private final PartitionData current = new PartitionData(key, DeletionTime.LIVE, List.of(), null, List.of());

    private final List<CasRequest> paxosCalls = new ArrayList<>();
    /** Finds a transaction's intent on the partition. */
    private final LwtCoordinator paxos = (request, serial, commit) -> {
        paxosCalls.add(request);
        return CompletableFuture.failedFuture(new IntentFound(table, key));
    };
    private final List<List<CasRequest>> transactionCalls = new ArrayList<>();

    @Test
    void aSerialReadDecidedWithoutRowsReadsThePartitionAgain() throws Exception {
        CasResult result = decidedByItsRecord(false).cas(CasRequest.read(table, key, ReadSpec.all(0)), ConsistencyLevel.SERIAL,
                ConsistencyLevel.QUORUM).get(5, TimeUnit.SECONDS);

        assertThat(result.applied()).isFalse();
        assertThat(result.current()).as("the partition read again after the transaction").isSameAs(current);
        assertThat(paxosCalls).as("the read, which met the intent").hasSize(1);
        assertThat(transactionCalls).as("the read as a transaction, then the read again").hasSize(2);
        assertThat(transactionCalls.get(1)).as("the read again").singleElement().matches(CasRequest::isRead);
    }

    @Test
    void anUpdateAppliedByItsRecordStaysAppliedAndShowsThePartitionAfterIt() throws Exception {
        CasRequest update = new CasRequest() {
            @Override
            public TableMetadata table() {
                return table;
            }

            @Override
            public PartitionKey key() {
                return key;
            }

            @Override
            public ReadSpec read() {
                return ReadSpec.all(0);
            }

            @Override
            public PartitionUpdate apply(PartitionData partition, long timestampMicros) {
                throw new AssertionError("the transaction decides it; this coordinator never evaluates it");
            }
        };
        CasResult result = decidedByItsRecord(true).cas(update, ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM).get(5, TimeUnit.SECONDS);

        assertThat(result.applied()).as("what the record decided").isTrue();
        assertThat(result.current()).isSameAs(current);
        assertThat(transactionCalls).as("the update as a transaction, then the partition read after it").hasSize(2);
        assertThat(transactionCalls.get(1)).singleElement().matches(CasRequest::isRead);
    }

    /**
     * Transactions that answer the first as a record decided it ({@code applied}, and no rows read by the
     * transaction), and read {@link #current} for any later one.
     */
    private TransactionalLwt decidedByItsRecord(boolean applied) {
        Transactions transactions = (participants, serial, commit, source) -> {
            transactionCalls.add(participants);
            return CompletableFuture.completedFuture(transactionCalls.size() == 1
                    ? new TransactionResult(applied, Arrays.asList((PartitionData) null))
                    : new TransactionResult(false, List.of(current)));
        };
        return new TransactionalLwt(paxos, transactions);
    }
}

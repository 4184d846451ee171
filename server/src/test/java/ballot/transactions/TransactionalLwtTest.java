package ballot.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
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

    @Test
    void aSerialReadDecidedWithoutRowsReadsThePartitionAgain() throws Exception {
        List<CasRequest> paxosCalls = new ArrayList<>();
        LwtCoordinator paxos = (request, serial, commit) -> {
            paxosCalls.add(request);
            return paxosCalls.size() == 1 ? CompletableFuture.failedFuture(new IntentFound(table, key))
                    : CompletableFuture.completedFuture(new CasResult(false, current));
        };
        Transactions decidedByItsRecord = (participants, serial, commit, source) ->
                CompletableFuture.completedFuture(new TransactionResult(false, Arrays.asList((PartitionData) null)));
        TransactionalLwt lwt = new TransactionalLwt(paxos, decidedByItsRecord);

        CasResult result = lwt.cas(CasRequest.read(table, key, ReadSpec.all(0)), ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM)
                .get(5, TimeUnit.SECONDS);

        assertThat(result.applied()).isFalse();
        assertThat(result.current()).as("the partition read again after the transaction").isSameAs(current);
        assertThat(paxosCalls).as("the read, then the read again").hasSize(2).allMatch(CasRequest::isRead);
    }
}

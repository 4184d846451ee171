package ballot.cql.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Transactions#runAndRead}: every participant gets a row, and the rows the transaction read stay. */
class TransactionsTest {
    private final TableMetadata table = SchemaDefinitions.table("ks", "CREATE TABLE t (k int PRIMARY KEY, v int)", UUID.randomUUID());
    private final PartitionData first = partition(1);
    private final PartitionData second = partition(2);
    private final PartitionData secondAfter = partition(2);
    private final List<List<CasRequest>> calls = new ArrayList<>();

    @Test
    void aParticipantTheResultLacksIsReadAfterTheDecisionAndTheOthersKeepTheirRows() throws Exception {
        Transactions transactions = answering(new TransactionResult(false, Arrays.asList(first, null)),
                new TransactionResult(false, List.of(secondAfter)));

        TransactionResult result = transactions.runAndRead(List.of(read(first), read(second)), ConsistencyLevel.SERIAL,
                ConsistencyLevel.QUORUM, null).get(5, TimeUnit.SECONDS);

        assertThat(result.applied()).isFalse();
        assertThat(result.reads().get(0)).as("the row the transaction read").isSameAs(first);
        assertThat(result.reads().get(1)).as("read after the decision").isSameAs(secondAfter);
        assertThat(calls).hasSize(2);
        assertThat(calls.get(1)).as("the read after it: the participant without a row").singleElement().matches(CasRequest::isRead);
        assertThat(calls.get(1).get(0).key()).isEqualTo(second.key());
    }

    /** A read-only transaction decided by its record has no rows either: what it lacks is read again. */
    @Test
    void aReadThatComesBackWithoutARowIsReadAgain() throws Exception {
        Transactions transactions = answering(new TransactionResult(true, Arrays.asList(null, second)),
                new TransactionResult(false, Arrays.asList((PartitionData) null)), new TransactionResult(false, List.of(first)));

        TransactionResult result = transactions.runAndRead(List.of(read(first), read(second)), ConsistencyLevel.SERIAL,
                ConsistencyLevel.QUORUM, null).get(5, TimeUnit.SECONDS);

        assertThat(result.applied()).as("what the transaction decided").isTrue();
        assertThat(result.reads()).containsExactly(first, second);
        assertThat(calls).as("the transaction, a read without a row, the read again").hasSize(3);
    }

    @Test
    void readsThatNeverComeBackWithARowTimeOut() {
        TransactionResult none = new TransactionResult(false, Arrays.asList((PartitionData) null));
        Transactions transactions = answering(none, none, none, none, none);

        assertThatThrownBy(() -> transactions.runAndRead(List.of(read(first)), ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM, null)
                .get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(WriteTimeoutException.class);
        assertThat(calls).as("the transaction, then every read again allowed").hasSize(1 + Transactions.REREADS_MAX);
    }

    @Test
    void aResultWithEveryRowIsTheAnswer() throws Exception {
        TransactionResult complete = new TransactionResult(true, List.of(first, second));
        Transactions transactions = answering(complete);

        TransactionResult result = transactions.runAndRead(List.of(read(first), read(second)), ConsistencyLevel.SERIAL,
                ConsistencyLevel.QUORUM, null).get(5, TimeUnit.SECONDS);

        assertThat(result).isSameAs(complete);
        assertThat(calls).as("no read after it").hasSize(1);
    }

    /** Transactions that answer their calls with {@code answers}, in order. */
    private Transactions answering(TransactionResult... answers) {
        return (participants, serial, commit, source) -> {
            calls.add(participants);
            return CompletableFuture.completedFuture(answers[calls.size() - 1]);
        };
    }

    private CasRequest read(PartitionData partition) {
        return CasRequest.read(table, partition.key(), ReadSpec.all(0));
    }

    private static PartitionData partition(int k) {
        return new PartitionData(PartitionKey.of(ByteBuffer.allocate(4).putInt(0, k)), DeletionTime.LIVE, List.of(), null, List.of());
    }
}

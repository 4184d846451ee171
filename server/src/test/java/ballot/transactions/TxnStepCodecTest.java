package ballot.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.StatementSource;
import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Intent;
import ballot.txn.Record;
import ballot.txn.TxnId;
import ballot.txn.step.DropRecord;
import ballot.txn.step.Fence;
import ballot.txn.step.Finalize;
import ballot.txn.step.Forget;
import ballot.txn.step.Inspect;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Reply;
import ballot.txn.step.Resolve;
import ballot.txn.step.Restart;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Steps and replies as they travel to the node that runs them (docs/txn.md §11.1, "Coordination"). */
class TxnStepCodecTest {
    private static final UUID TABLE = new UUID(1, 2);
    private static final PartitionKey KEY = PartitionKey.of(ByteBuffer.wrap(new byte[] {0, 0, 0, 7}));
    private static final ballot.txn.PartitionKey HOME = TxnKeys.of(TABLE, KEY);
    private static final TxnId ID = new TxnId(new UUID(3, 4));
    private static final Attempt ATTEMPT = new Attempt(ID, 2);
    private static final StatementSource SOURCE = new StatementSource("ks", List.of(
            new StatementSource.Statement("UPDATE t SET v = ? WHERE k = ? IF v = ?",
                    java.util.Arrays.asList(ByteBuffer.wrap(new byte[] {1}), null, QueryOptions.UNSET), null),
            new StatementSource.Statement("INSERT INTO t (k, v) VALUES (:k, :v)", List.of(), List.of("k", "v"))),
            BatchType.LOGGED, ConsistencyLevel.ALL, ConsistencyLevel.SERIAL, 1_700_000_000);
    private static final CasRequest PARTICIPANT = CasRequest.read(null, KEY, ReadSpec.all(0));

    /** The client's ALL travels with the operation: the peer's placement commits at it (PaxosPartitionCas.commitLevel). */
    @Test
    void everyStepRoundTripsWithItsOperationRebuiltFromTheSource() {
        CqlOperation operation = new CqlOperation(PARTICIPANT, 1, SOURCE, ConsistencyLevel.ALL);
        List<Decision> decisions = List.of(new Decision(new Attempt(new TxnId(new UUID(9, 9)), 0), true));
        List<Step<TxnValue>> steps = List.of(
                new Stage<>(Record.staging(ID, 0, 10, 20, List.of(HOME))),
                new Restart<>(ID, 1, 10, 30, List.of(HOME)),
                new Place<>(ATTEMPT, HOME, 10, 20, operation, decisions, 50_000),
                new Fence<>(ATTEMPT, 20),
                Finalize.abort(ATTEMPT, "condition not met", 20, List.of(HOME)),
                new Resolve<>(new Decision(ATTEMPT, true)),
                new ReadRecord<>(ID),
                new Inspect<>(15),
                new OnePhase<>(ATTEMPT, 10, 20, operation, decisions, List.of(HOME), 50_000),
                new Forget<>(ID, 20),
                new DropRecord<>(ID, 15));
        List<StatementSource> rebuilt = new ArrayList<>();
        TxnStepCodec.Request decoded = TxnStepCodec.decode(TxnStepCodec.encode(new TxnStepCodec.Request(TABLE, KEY, steps)), source -> {
            rebuilt.add(source);
            return List.of(PARTICIPANT, PARTICIPANT);
        });
        assertThat(decoded.tableId()).isEqualTo(TABLE);
        assertThat(decoded.key()).isEqualTo(KEY);
        assertThat(decoded.steps()).as("every step, its operation rebuilt").isEqualTo(steps);
        assertThat(rebuilt).singleElement().satisfies(source -> {
            assertThat(source.keyspace()).isEqualTo("ks");
            assertThat(source.batchType()).isEqualTo(BatchType.LOGGED);
            assertThat(source.nowInSec()).isEqualTo(1_700_000_000);
            assertThat(source.statements().get(0).values().get(1)).isNull();
            assertThat(source.statements().get(0).values().get(2)).as("unset stays unset").isSameAs(QueryOptions.UNSET);
            assertThat(source.statements().get(1).valueNames()).containsExactly("k", "v");
        });
    }

    @Test
    void aPlacementWithoutASourceStaysOnItsNode() {
        Place<TxnValue> local = new Place<>(ATTEMPT, HOME, 10, 20, new CqlOperation(PARTICIPANT, 0, null, ConsistencyLevel.QUORUM), List.of(), 1);
        assertThat(TxnStepCodec.travels(List.of(new ReadRecord<>(ID), local))).isFalse();
        assertThat(TxnStepCodec.travels(List.of(new ReadRecord<>(ID)))).isTrue();
    }

    @Test
    void everyReplyRoundTrips() {
        PartitionData data = new PartitionData(KEY, DeletionTime.LIVE, List.of(), null, List.of());
        Intent<TxnValue> blocker = new Intent<>(new Attempt(new TxnId(new UUID(5, 5)), 0), HOME, 1, 2,
                new TxnValue.Write(new ballot.cql.data.PartitionUpdate(TABLE, KEY, DeletionTime.LIVE, List.of(), null, List.of())));
        Record record = Record.staging(ID, 0, 10, 20, List.of(HOME));
        List<Reply> replies = List.of(Reply.UNKNOWN, new Reply.RecordSeen(record), new Reply.RecordSeen(null), new Reply.Presence(true),
                new Reply.Resolved(false), new Reply.Cleared(true), new Reply.Inspection<>(blocker, List.of(record), List.of()),
                new Reply.Placement<>(Reply.Placement.Outcome.PLACED, new TxnValue.Read(data), null, null, null),
                new Reply.Placement<>(Reply.Placement.Outcome.WAIT, null, blocker, null, null),
                new Reply.Placement<>(Reply.Placement.Outcome.DECIDED, new TxnValue.Read(data), null, "invalid: no", record));
        assertThat(TxnStepCodec.decodeReplies(TxnStepCodec.encodeReplies(replies, TABLE, KEY), TABLE, KEY)).isEqualTo(replies);
        assertThatThrownBy(() -> TxnStepCodec.decodeReplies(new byte[] {0, 0, 0, 1, 42}, TABLE, KEY)).hasMessageContaining("unknown transaction reply");
    }
}

package ballot.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.spi.CasRequest;
import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Record;
import ballot.txn.TxnId;
import ballot.txn.step.Finalize;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.Resolve;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The commit level of a transaction step's Paxos round (docs/txn.md §11.1, "PartitionCas over the Paxos engine"). */
class PaxosPartitionCasTest {
    private static final UUID TABLE = new UUID(1, 2);
    private static final PartitionKey KEY = PartitionKey.of(ByteBuffer.wrap(new byte[] {0, 0, 0, 7}));
    private static final ballot.txn.PartitionKey HOME = TxnKeys.of(TABLE, KEY);
    private static final Attempt ATTEMPT = new Attempt(new TxnId(new UUID(3, 4)), 0);
    private static final CasRequest PARTICIPANT = CasRequest.read(null, KEY, ReadSpec.all(0));

    @Test
    void stepsThatChangeWhatReadsSeeCommitAtAQuorumOrAtTheClientsStrongerLevel() {
        Stage<TxnValue> stage = new Stage<>(Record.staging(ATTEMPT.id(), 0, 10, 20, List.of(HOME)));
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(stage))).as("a decision alone").isEqualTo(ConsistencyLevel.ANY);
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(stage, place(ConsistencyLevel.ALL)))).isEqualTo(ConsistencyLevel.ALL);
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(place(ConsistencyLevel.EACH_QUORUM)))).isEqualTo(ConsistencyLevel.EACH_QUORUM);
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(place(ConsistencyLevel.THREE)))).isEqualTo(ConsistencyLevel.THREE);
        for (ConsistencyLevel weaker : List.of(ConsistencyLevel.ONE, ConsistencyLevel.LOCAL_ONE, ConsistencyLevel.LOCAL_QUORUM,
                ConsistencyLevel.ANY, ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM))
            assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(place(weaker)))).as("asked %s", weaker).isEqualTo(ConsistencyLevel.QUORUM);
        OnePhase<TxnValue> onePhase = new OnePhase<>(ATTEMPT, 10, 20, operation(ConsistencyLevel.ALL), List.of(), List.of(HOME), 1);
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(onePhase))).isEqualTo(ConsistencyLevel.ALL);
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(new Resolve<>(new Decision(ATTEMPT, true)))))
                .as("a resolution knows no client").isEqualTo(ConsistencyLevel.QUORUM);
        assertThat(PaxosPartitionCas.commitLevel(List.<Step<TxnValue>>of(Finalize.abort(ATTEMPT, "condition not met", 20, List.of(HOME)))))
                .isEqualTo(ConsistencyLevel.QUORUM);
    }

    private static Place<TxnValue> place(ConsistencyLevel asked) {
        return new Place<>(ATTEMPT, HOME, 10, 20, operation(asked), List.of(), 1);
    }

    private static CqlOperation operation(ConsistencyLevel asked) {
        return new CqlOperation(PARTICIPANT, 0, null, asked);
    }
}

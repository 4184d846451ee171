package ballot.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.Row;
import ballot.txn.Attempt;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Reservation;
import ballot.txn.TxnId;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The transaction state of a partition in the bytes replicas store (docs/txn.md §11.1). */
class TxnStateCodecTest {
    private static final UUID TABLE = new UUID(1, 2);
    private static final PartitionKey KEY = PartitionKey.of(ByteBuffer.wrap(new byte[] {0, 0, 0, 7}));
    private static final TxnValue.Read NOTHING_READ = new TxnValue.Read(new PartitionData(KEY, DeletionTime.LIVE, List.of(), null, List.of()));

    private static TxnId id(long n) {
        return new TxnId(new UUID(0, n));
    }

    private static PartitionUpdate setV(int value) {
        return new PartitionUpdate(TABLE, KEY, DeletionTime.LIVE, List.of(), null, List.of(Row.of(Clustering.EMPTY, LivenessInfo.EMPTY,
                List.of(Cell.live(1, null, ByteBuffer.allocate(4).putInt(0, value), 0)))));
    }

    /** The sweep skips, without decoding, states that hold only markers or a reservation (docs/txn.md §6.3). */
    @Test
    void onlyIntentsAndRecordsMakeAStateWorthASweep() {
        ballot.txn.PartitionKey home = TxnKeys.of(TABLE, KEY);
        PartitionState<TxnValue> markers = PartitionState.<TxnValue>of(NOTHING_READ)
                .withMarker(id(4), new Marker(1, Marker.Kind.APPLIED, null, 400))
                .withReservation(new Reservation(id(3), 50, 300));
        assertThat(TxnStateCodec.mayNeedSweep(TxnStateCodec.encode(markers, TABLE, KEY))).isFalse();
        byte[] withRecord = TxnStateCodec.encode(markers.withRecord(Record.staging(id(7), 0, 30, 40, List.of(home))), TABLE, KEY);
        assertThat(TxnStateCodec.mayNeedSweep(withRecord)).isTrue();
        assertThat(TxnStateCodec.decode(withRecord, NOTHING_READ, TABLE, KEY).records()).hasSize(1);
        byte[] withIntent = TxnStateCodec.encode(markers.withIntent(new Intent<>(new Attempt(id(1), 0), home, 100, 200,
                new TxnValue.Write(setV(1)))), TABLE, KEY);
        assertThat(TxnStateCodec.mayNeedSweep(withIntent)).isTrue();
        assertThat(TxnStateCodec.mayNeedSweep(new byte[0])).isFalse();
        byte[] versionOne = withRecord.clone();
        versionOne[0] = 1;
        versionOne[1] = 0x02; // version 1 had no records bit: such a state is always decoded
        assertThat(TxnStateCodec.mayNeedSweep(versionOne)).isTrue();
        assertThat(TxnStateCodec.decode(versionOne, NOTHING_READ, TABLE, KEY).records()).hasSize(1);
    }

    @Test
    void everyPartOfTheStateRoundTrips() {
        ballot.txn.PartitionKey home = TxnKeys.of(TABLE, PartitionKey.of(ByteBuffer.wrap(new byte[] {9})));
        Intent<TxnValue> intent = new Intent<>(new Attempt(id(1), 2), home, 100, 200, new TxnValue.Write(setV(42)));
        PartitionState<TxnValue> state = PartitionState.<TxnValue>of(NOTHING_READ)
                .withIntent(intent)
                .withReservation(new Reservation(id(3), 50, 300))
                .withMarker(id(4), new Marker(1, Marker.Kind.FENCED, "condition not met", 400))
                .withMarker(id(5), new Marker(0, Marker.Kind.APPLIED, null, 500))
                .withRecord(new Record(id(6), 1, Record.Status.ABORTED, "invalid: no", 10, 20, List.of(home, TxnKeys.of(TABLE, KEY))))
                .withRecord(Record.staging(id(7), 0, 30, 40, List.of()));
        byte[] bytes = TxnStateCodec.encode(state, TABLE, KEY);
        assertThat(TxnStateCodec.holdsIntent(bytes)).isTrue();
        PartitionState<TxnValue> decoded = TxnStateCodec.decode(bytes, NOTHING_READ, TABLE, KEY);
        assertThat(decoded.value()).isEqualTo(NOTHING_READ);
        assertThat(decoded.intent().attempt()).isEqualTo(intent.attempt());
        assertThat(decoded.intent().home()).isEqualTo(home);
        assertThat(decoded.intent().ageMicros()).isEqualTo(100);
        assertThat(decoded.intent().deadlineMicros()).isEqualTo(200);
        assertThat(((TxnValue.Write) decoded.intent().value()).update()).isEqualTo(setV(42));
        assertThat(decoded.reservation()).isEqualTo(state.reservation());
        assertThat(decoded.markers()).isEqualTo(state.markers());
        assertThat(decoded.records()).isEqualTo(state.records());
        assertThat(TxnStateCodec.encode(decoded, TABLE, KEY)).isEqualTo(bytes);
    }

    @Test
    void aStateThatHoldsNothingIsTheEmptyTombstone() {
        byte[] bytes = TxnStateCodec.encode(PartitionState.of(NOTHING_READ), TABLE, KEY);
        assertThat(bytes).isEmpty();
        assertThat(TxnStateCodec.holdsIntent(bytes)).isFalse();
        assertThat(TxnStateCodec.decode(bytes, NOTHING_READ, TABLE, KEY)).isEqualTo(PartitionState.of(NOTHING_READ));
        PartitionState<TxnValue> onlyMarker = PartitionState.<TxnValue>of(NOTHING_READ).withMarker(id(1), new Marker(0, Marker.Kind.APPLIED, null, 9));
        assertThat(TxnStateCodec.holdsIntent(TxnStateCodec.encode(onlyMarker, TABLE, KEY))).isFalse();
    }

    /** A read-only participant's intent writes nothing when rolled forward. */
    @Test
    void aReadOnlyIntentDecodesAsAnEmptyWrite() {
        Intent<TxnValue> reading = new Intent<>(new Attempt(id(1), 0), TxnKeys.of(TABLE, KEY), 1, 2, NOTHING_READ);
        byte[] bytes = TxnStateCodec.encode(PartitionState.<TxnValue>of(NOTHING_READ).withIntent(reading), TABLE, KEY);
        PartitionUpdate update = ((TxnValue.Write) TxnStateCodec.decode(bytes, NOTHING_READ, TABLE, KEY).intent().value()).update();
        assertThat(update.isEmpty()).isTrue();
    }

    @Test
    void malformedStatesAreRefusedWithTheirReason() {
        assertThatThrownBy(() -> TxnStateCodec.decode(new byte[] {9, 0}, NOTHING_READ, TABLE, KEY)).hasMessageContaining("version 9");
        byte[] bytes = TxnStateCodec.encode(PartitionState.<TxnValue>of(NOTHING_READ).withRecord(Record.staging(id(7), 0, 30, 40, List.of())), TABLE, KEY);
        assertThatThrownBy(() -> TxnStateCodec.decode(java.util.Arrays.copyOf(bytes, bytes.length - 3), NOTHING_READ, TABLE, KEY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

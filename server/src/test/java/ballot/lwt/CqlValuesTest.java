package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.paxos.Bytes;
import ballot.paxos.PaxosKey;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The CQL values inside Paxos (CqlValues): round trips, the golden layout of a query, relative entry timestamps. */
class CqlValuesTest {
    private static final UUID TABLE = new UUID(0x0102030405060708L, 0x090a0b0c0d0e0f10L);
    private static final PartitionKey KEY = PartitionKey.of(ByteBuffer.wrap(new byte[] {0, 0, 0, 7}));

    static ByteBuffer i(int v) {
        return ByteBuffer.allocate(4).putInt(0, v);
    }

    @Test
    void aKeyIsTableIdThenPartitionKey() {
        PaxosKey key = CqlValues.key(TABLE, KEY);
        assertThat(HexFormat.of().formatHex(key.bytes().toByteArray())).isEqualTo("0102030405060708090a0b0c0d0e0f10" + "00000007");
        assertThat(CqlValues.tableId(key)).isEqualTo(TABLE);
        assertThat(CqlValues.partitionKey(key)).isEqualTo(KEY);
    }

    @Test
    void aQueryHasAGoldenLayoutWithoutLimitsOrReadTime() {
        ReadSpec spec = new ReadSpec(List.of(Slice.of(i(5))), true, 1, 1, 1_700_000_000);
        Bytes query = CqlValues.Query.of(TABLE, spec, false).encode();
        assertThat(HexFormat.of().formatHex(query.toByteArray())).isEqualTo("01" // format
                + "0102030405060708090a0b0c0d0e0f10" // table id
                + "01" // reversed
                + "00000001" // one slice
                + "01" + "00000001" + "00000004" + "00000005" // start: inclusive, one value: 4 bytes, 5
                + "01" + "00000001" + "00000004" + "00000005"); // end
        // The same statement shape read at another time, with another limit, is the same query (fast-path hits).
        assertThat(CqlValues.Query.of(TABLE, new ReadSpec(List.of(Slice.of(i(5))), true, 100, 7, 42), false).encode()).isEqualTo(query);
        CqlValues.Query decoded = CqlValues.Query.decode(query);
        assertThat(decoded.tableId()).isEqualTo(TABLE);
        assertThat(decoded.reversed()).isTrue();
        assertThat(decoded.spec(9).rowLimit()).isEqualTo(Integer.MAX_VALUE);
        assertThat(decoded.slices().get(0).start().prefix()[0]).isEqualTo(i(5));
    }

    @Test
    void aStaticOnlyQueryHasNoSlices() {
        Bytes query = CqlValues.Query.of(TABLE, new ReadSpec(List.of(), false, 1, 1, 0), false).encode();
        assertThat(CqlValues.Query.decode(query).slices()).isEmpty();
    }

    @Test
    void resultsRoundTrip() {
        PartitionData data = new PartitionData(KEY, new DeletionTime(50, 1000),
                List.of(new RangeTombstone(new Slice(new ClusteringBound(new ByteBuffer[] {i(1)}, true), ClusteringBound.UNBOUNDED),
                        new DeletionTime(60, 1001))),
                Row.of(Clustering.STATIC, LivenessInfo.EMPTY, List.of(Cell.live(2, null, i(9), 70))),
                List.of(Row.of(Clustering.of(i(3)), LivenessInfo.of(80, 0, 0), List.of(Cell.live(1, null, i(4), 80))),
                        Row.deletion(Clustering.of(i(4)), new DeletionTime(90, 1002))));
        PartitionData back = CqlValues.decodeResult(CqlValues.encodeResult(data));
        assertThat(CqlValues.encodeResult(back)).isEqualTo(CqlValues.encodeResult(data));
        assertThat(back.key()).isEqualTo(KEY);
        assertThat(back.partitionDeletion()).isEqualTo(data.partitionDeletion());
        assertThat(back.rows()).hasSize(2);
        assertThat(back.rows().get(0).clustering()).isEqualTo(Clustering.of(i(3)));
        assertThat(back.staticRow().cells().get(0).timestamp()).isEqualTo(70);
        assertThat(back.rangeTombstones().get(0).deletion()).isEqualTo(new DeletionTime(60, 1001));
    }

    @Test
    void entryTimestampsAreRelativeToTheEvaluationAndMoveToTheDecreesTimestamp() {
        long evaluatedAt = 1_000_000;
        PartitionUpdate update = new PartitionUpdate(TABLE, KEY, DeletionTime.LIVE, List.of(), null, List.of(
                new Row(Clustering.of(i(1)), LivenessInfo.of(evaluatedAt, 0, 0), DeletionTime.LIVE,
                        List.of(Cell.live(1, ByteBuffer.wrap(new byte[] {1}), i(5), evaluatedAt), Cell.tombstone(2, null, evaluatedAt, 77)),
                        // a collection overwrite deletes the old elements just before the new ones (timestamp - 1)
                        List.of(new ComplexDeletion(1, new DeletionTime(evaluatedAt - 1, 77))))));
        Bytes entry = CqlValues.encodeEntry(update, evaluatedAt);
        PartitionUpdate decided = CqlValues.decodeEntry(entry, TABLE, KEY, 5_000_003);
        Row row = decided.rows().get(0);
        assertThat(row.liveness().timestamp()).isEqualTo(5_000_003);
        assertThat(row.cells()).extracting(Cell::timestamp).containsExactly(5_000_003L, 5_000_003L);
        assertThat(row.complexDeletions().get(0).deletion()).isEqualTo(new DeletionTime(5_000_002, 77));
        assertThat(row.deletion().isLive()).as("no row deletion stays no row deletion").isTrue();
        assertThat(decided.partitionDeletion().isLive()).isTrue();
        assertThat(decided.tableId()).isEqualTo(TABLE);
        assertThat(decided.key()).isEqualTo(KEY);
        // the same entry at its own timestamp is the update itself
        assertThat(CqlValues.encodeEntry(CqlValues.decodeEntry(entry, TABLE, KEY, evaluatedAt), evaluatedAt)).isEqualTo(entry);
    }

    @Test
    void malformedValuesAreRefusedWithTheirReason() {
        assertThatThrownBy(() -> CqlValues.Query.decode(Bytes.wrap(new byte[] {3}))).hasMessageContaining("format 3");
        Bytes query = CqlValues.Query.of(TABLE, ReadSpec.all(0), false).encode();
        byte[] truncated = java.util.Arrays.copyOf(query.toByteArray(), query.size() - 3);
        assertThatThrownBy(() -> CqlValues.Query.decode(Bytes.wrap(truncated))).isInstanceOf(IllegalArgumentException.class);
        byte[] longer = java.util.Arrays.copyOf(query.toByteArray(), query.size() + 1);
        assertThatThrownBy(() -> CqlValues.Query.decode(Bytes.wrap(longer))).hasMessageContaining("after the end");
    }

    /** docs/txn.md §11.1: queries, results and entries of format 2 carry the partition's transaction state. */
    @Test
    void transactionStateTravelsInQueriesResultsAndEntries() {
        ReadSpec spec = new ReadSpec(List.of(Slice.of(i(5))), false, 100, 7, 42);
        CqlValues.Query query = CqlValues.Query.decode(CqlValues.Query.of(TABLE, spec, true).encode());
        assertThat(query.txnState()).isTrue();
        assertThat(CqlValues.Query.decode(CqlValues.Query.of(TABLE, spec, false).encode()).txnState()).isFalse();

        PartitionData data = new PartitionData(KEY, DeletionTime.LIVE, List.of(), null, List.of());
        TxnCell cell = new TxnCell(77, new byte[] {4, 5});
        assertThat(CqlValues.decodeResultWithTxn(CqlValues.encodeResult(data, true, cell)).txn()).isEqualTo(cell);
        assertThat(CqlValues.decodeResultWithTxn(CqlValues.encodeResult(data, true, null)).txn()).as("asked, none stored").isNull();
        assertThat(CqlValues.decodeResultWithTxn(CqlValues.encodeResult(data)).txn()).isNull();

        PartitionUpdate nothing = new PartitionUpdate(TABLE, KEY, DeletionTime.LIVE, List.of(), null, List.of());
        Bytes entry = CqlValues.encodeEntry(nothing, 0, new byte[] {6});
        assertThat(CqlValues.decodeEntryWithTxn(entry, TABLE, KEY, 1_000).txn()).as("the entry's state at its timestamp")
                .isEqualTo(new TxnCell(1_000, new byte[] {6}));
        assertThat(CqlValues.decodeEntryWithTxn(CqlValues.encodeEntry(nothing, 0), TABLE, KEY, 1_000).txn()).isNull();
    }

    @Test
    void theNewerTransactionStateWinsWhateverTheOrder() {
        TxnCell a = new TxnCell(10, new byte[] {1});
        TxnCell b = new TxnCell(20, new byte[0]);
        assertThat(TxnCell.newer(a, b)).isEqualTo(b);
        assertThat(TxnCell.newer(b, a)).isEqualTo(b);
        assertThat(TxnCell.newer(null, a)).isEqualTo(a);
        assertThat(TxnCell.newer(a, null)).isEqualTo(a);
    }
}

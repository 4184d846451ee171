package ballot.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.lwt.TxnCell;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.txn.Attempt;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.TxnId;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction sweep's pass over a real RocksDB (docs/txn.md §11.1): it sweeps the partitions whose intent or
 * staging record is past its deadline, whether their state was stored before the node started or written since, and
 * never those whose state holds nothing due.
 */
class TxnSweepTest {
    private static final long NOW = 1_000_000_000L;
    private static final long PERIOD_MICROS = 1_000_000;

    @TempDir
    Path directory;
    private StorageEngine storage;
    private TableMetadata table;

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        table = SchemaDefinitions.table("ks", "CREATE TABLE accounts (k int PRIMARY KEY, balance int)", UUID.randomUUID());
        storage.ensureTable(table);
    }

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void sweepsWhatIsDueAndNothingElse() {
        store(1, state(1).withIntent(intent(1, NOW - 1))); // abandoned: its deadline has passed
        store(2, state(2).withIntent(intent(2, NOW + PERIOD_MICROS))); // in flight
        store(3, state(3).withMarker(id(3), new Marker(0, Marker.Kind.APPLIED, null, NOW - 1))); // done: markers expire by themselves
        store(4, state(4)); // emptied: the tombstone every partition a transaction touched keeps
        storage.close();
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        storage.trackTxnStates(TransactionalReads::holdsIntent, TransactionalReads::mayAwaitSweep);

        assertThat(pass()).as("found at start").containsExactly(key(1));

        store(5, state(5).withRecord(Record.staging(id(5), 0, 10, NOW - 1, List.of(TxnKeys.of(table.id(), key(5))))));
        store(1, state(1)); // its transaction was recovered meanwhile
        assertThat(pass()).as("written since").containsExactly(key(5));
    }

    /** The partitions one pass sweeps; every partition's first live replica is this node. */
    private List<PartitionKey> pass() {
        List<PartitionKey> swept = new ArrayList<>();
        new TxnSweep(storage, () -> NOW, Duration.ofSeconds(15), Duration.ofSeconds(1), key -> true,
                key -> swept.add(TxnKeys.partitionKey(key))).pass();
        return swept;
    }

    private void store(int k, PartitionState<TxnValue> state) {
        byte[] encoded = TxnStateCodec.encode(state, table.id(), key(k));
        byte[] stored = ByteBuffer.allocate(TxnCell.STATE_OFFSET + encoded.length).putLong(NOW).put(encoded).array();
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(k), null, List.of(), stored)), true);
    }

    private PartitionState<TxnValue> state(int k) {
        return PartitionState.of(new TxnValue.Read(new PartitionData(key(k), DeletionTime.LIVE, List.of(), null, List.of())));
    }

    private Intent<TxnValue> intent(int k, long deadlineMicros) {
        return new Intent<>(new Attempt(id(k), 0), TxnKeys.of(table.id(), key(k)), 10, deadlineMicros,
                new TxnValue.Read(new PartitionData(key(k), DeletionTime.LIVE, List.of(), null, List.of())));
    }

    private static TxnId id(long n) {
        return new TxnId(new UUID(0, n));
    }

    private static PartitionKey key(int k) {
        return PartitionKey.of(ByteBuffer.allocate(4).putInt(0, k));
    }
}

package ballot.storage;

import ballot.cql.data.PartitionKey;
import ballot.cql.data.Row;
import ballot.cql.index.IndexTerms;
import ballot.cql.schema.IndexMetadata;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * One index's column family and the rule that turns rows into its entries (docs/indexes.md, "Storage"). An entry's
 * key is {@code term · partition prefix · clustering · writeId}, with an empty clustering for partition-level targets
 * (static and partition key columns); its value is the term's length, which the key alone does not tell.
 */
final class IndexStore {
    /** Where the index is in its life on this node; only a BUILT index answers queries. */
    enum State { BUILDING, BUILT }

    private final IndexTerms terms;
    private final SharedFamily shared;
    /** Shared by every store of this index: a build that ends marks the one the table holds by then. */
    private final AtomicReference<State> state;

    IndexStore(IndexTerms terms, SharedFamily shared, State state) {
        this(terms, shared, new AtomicReference<>(state));
    }

    private IndexStore(IndexTerms terms, SharedFamily shared, AtomicReference<State> state) {
        this.terms = terms;
        this.shared = shared;
        this.state = state;
    }

    /** This index for an altered definition of its table (types re-resolved), its storage and state unchanged. */
    IndexStore retargeted(IndexTerms newTerms) {
        return new IndexStore(newTerms, shared, state);
    }

    IndexTerms terms() {
        return terms;
    }

    IndexMetadata metadata() {
        return terms.index();
    }

    /** The index's handle: only while it is held ({@link #hold}) or under the engine's install lock. */
    ColumnFamilyHandle family() {
        return shared.handle();
    }

    SharedFamily shared() {
        return shared;
    }

    /** Holds the index's family open (SharedFamily), or fails if the index was dropped. */
    SharedFamily.Held hold() {
        return shared.hold("index " + metadata().name());
    }

    State state() {
        return state.get();
    }

    void built() {
        state.set(State.BUILT);
    }

    /** Puts the entries of one written fragment. */
    void addTo(WriteBatch batch, ByteBuffer[] partitionKey, byte[] partitionPrefix, Row fragment, byte[] clustering, byte[] writeId)
            throws RocksDBException {
        List<byte[]> fragmentTerms = terms.ofWrite(partitionKey, fragment);
        for (byte[] term : fragmentTerms) put(batch, term, partitionPrefix, clustering, writeId);
    }

    /** Puts the entry of {@code term} for the row at {@code clustering} (empty for a partition-level target). */
    void put(WriteBatch batch, byte[] term, byte[] partitionPrefix, byte[] clustering, byte[] writeId) throws RocksDBException {
        byte[] rowKey = terms.selectsPartitions() ? new byte[0] : clustering;
        byte[] key = new byte[term.length + partitionPrefix.length + rowKey.length + writeId.length];
        System.arraycopy(term, 0, key, 0, term.length);
        System.arraycopy(partitionPrefix, 0, key, term.length, partitionPrefix.length);
        System.arraycopy(rowKey, 0, key, term.length + partitionPrefix.length, rowKey.length);
        System.arraycopy(writeId, 0, key, key.length - writeId.length, writeId.length);
        batch.put(family(), key, ByteBuffer.allocate(4).putInt(0, term.length).array());
    }

    /** An entry taken apart: its term, and the row it points to (partition prefix, then clustering bytes). */
    record Entry(byte[] term, byte[] row) {
        static Entry of(byte[] key, byte[] value) {
            int termLength = ByteBuffer.wrap(value).getInt();
            return new Entry(Arrays.copyOf(key, termLength), Arrays.copyOfRange(key, termLength, key.length - WriteId.BYTES));
        }

        byte[] partitionPrefix() {
            return Arrays.copyOf(row, StorageKeys.partitionPrefixLength(row));
        }

        byte[] clustering() {
            return Arrays.copyOfRange(row, StorageKeys.partitionPrefixLength(row), row.length);
        }

        PartitionKey partitionKey() {
            return StorageKeys.partitionKey(row);
        }
    }
}

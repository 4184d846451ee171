package ballot.lwt;

import ballot.cql.data.PartitionKey;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.acceptor.AcceptorState;
import ballot.storage.StorageEngine;
import ballot.system.VirtualTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The rows of system.paxos: this node's acceptor registers (docs/paxos.md §2), one row per partition that has any,
 * in Cassandra's columns (§12). Only this node's: system tables are local, as in Cassandra.
 *
 * <p>Rows are read from the paxos column family, not through the lanes, so a row may be one step behind an acceptor
 * write in flight; it never shows a register that was not durable. A row's partition key is the user partition's key,
 * so it has that partition's token.
 */
public final class SystemPaxosRows implements VirtualTable.Source {
    private final StorageEngine storage;
    private final Supplier<Schema> schema;

    public SystemPaxosRows(StorageEngine storage, Supplier<Schema> schema) {
        this.storage = storage;
        this.schema = schema;
    }

    /** One register lookup per table: a partition key can have registers in every table. */
    @Override
    public List<Map<String, Object>> partition(PartitionKey key) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.get().keyspaces().values()) {
            for (TableMetadata table : ks.tables().values()) {
                byte[] state = storage.paxosState(table.id(), key);
                if (state != null) rows.add(row(table.id(), key, state));
            }
        }
        return rows;
    }

    /**
     * Walks the registers (stored by table, not by token) keeping the first {@code partitionsMax} partitions of the
     * range in token order; only those are decoded. Each page of a scan walks all registers again.
     */
    @Override
    public List<Map<String, Object>> partitions(TokenRange range, int partitionsMax) {
        TreeMap<PartitionKey, List<StorageEngine.PaxosState>> first = new TreeMap<>();
        storage.forEachPaxosState(s -> {
            if (!range.contains(s.key())) return;
            first.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s);
            if (first.size() > partitionsMax) first.pollLastEntry();
        });
        List<Map<String, Object>> rows = new ArrayList<>();
        for (List<StorageEngine.PaxosState> states : first.values()) {
            for (StorageEngine.PaxosState s : states) rows.add(row(s.tableId(), s.key(), s.state()));
        }
        return rows;
    }

    /**
     * in_progress_ballot is the promise (every Ballot promise is a write promise: in_progress_read_ballot stays null);
     * proposal the accepted proposal not yet committed here; most_recent_commit the last decree applied here, whose
     * entries are gone once pruned (§4.7). Blobs are {@link PaxosCodec#encodeEntries}, versions the entries' format.
     */
    private static Map<String, Object> row(UUID tableId, PartitionKey key, byte[] encoded) {
        AcceptorState state = PaxosCodec.decodeState(encoded);
        Map<String, Object> row = new HashMap<>();
        row.put("row_key", key.key());
        row.put("cf_id", tableId);
        row.put("in_progress_ballot", timeUuid(state.promised()));
        if (state.accepted() != null) {
            row.put("proposal_ballot", timeUuid(state.accepted().ballot()));
            putEntries(row, "proposal", "proposal_version", state.accepted().entries());
        }
        row.put("most_recent_commit_at", timeUuid(state.committed().ballot()));
        if (!state.committed().isPruned() && !state.committed().ballot().isZero()) {
            putEntries(row, "most_recent_commit", "most_recent_commit_version", state.committed().entries());
        }
        return row;
    }

    private static void putEntries(Map<String, Object> row, String blob, String version, List<Bytes> entries) {
        row.put(blob, PaxosCodec.encodeEntries(entries));
        row.put(version, (int) CqlValues.FORMAT);
    }

    /** Null for the zero ballot: the register was never set. */
    private static UUID timeUuid(Ballot ballot) {
        return ballot.isZero() ? null : BallotTimeUuid.of(ballot);
    }
}

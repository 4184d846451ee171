package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.PartitionKey;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.acceptor.AcceptorState;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** system.paxos rows from acceptor registers on a real RocksDB: the columns, lookups by key, and pages in token order. */
class SystemPaxosRowsTest {
    private static final Bytes ENTRY_1 = Bytes.wrap(new byte[] {1, 2, 3});
    private static final Bytes ENTRY_2 = Bytes.wrap(new byte[] {4});

    @TempDir
    Path directory;
    private StorageEngine storage;
    private final TableMetadata a = SchemaDefinitions.table("ks", "CREATE TABLE a (k int PRIMARY KEY, v int)", UUID.randomUUID());
    private final TableMetadata b = SchemaDefinitions.table("ks", "CREATE TABLE b (k int PRIMARY KEY, v int)", UUID.randomUUID());
    private SystemPaxosRows rows;

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(a);
        storage.ensureTable(b);
        Schema schema = new Schema(Map.of("ks", new KeyspaceMetadata("ks", Map.of("class", "SimpleStrategy"), true,
                Map.of("a", a, "b", b), Map.of())), UUID.randomUUID());
        rows = new SystemPaxosRows(storage, () -> schema);
    }

    @AfterEach
    void close() {
        storage.close();
    }

    private static PartitionKey key(int k) {
        return PartitionKey.of(CqlValuesTest.i(k));
    }

    private static Ballot ballot(long micros) {
        return new Ballot(micros, 2, 77, 3);
    }

    private void persist(TableMetadata table, PartitionKey key, AcceptorState state) {
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key, PaxosCodec.encodeState(state), List.of())), true);
    }

    /** Promised 3000, accepted 2000 (two entries), committed 1000 with its entries or pruned. */
    private static AcceptorState inFlight(boolean commitPruned) {
        Decree committed = new Decree(ballot(1000), ballot(1000), commitPruned ? null : List.of(ENTRY_2));
        Proposal accepted = new Proposal(ballot(2000), ballot(2000), List.of(ENTRY_1, ENTRY_2), committed, null);
        return new AcceptorState(ballot(3000), accepted, committed, 2001, RecentDecrees.NONE);
    }

    @Test
    void showsThePromiseTheAcceptedProposalAndTheLastCommit() {
        persist(a, key(1), inFlight(false));
        Map<String, Object> row = rows.partition(key(1)).get(0);
        assertThat(row.get("row_key")).as("the serialized partition key").isEqualTo(CqlValuesTest.i(1));
        assertThat(row.get("cf_id")).isEqualTo(a.id());
        assertThat(row.get("in_progress_ballot")).isEqualTo(BallotTimeUuid.of(ballot(3000)));
        assertThat(row.get("in_progress_read_ballot")).isNull();
        assertThat(row.get("proposal_ballot")).isEqualTo(BallotTimeUuid.of(ballot(2000)));
        assertThat(entries((byte[]) row.get("proposal"))).containsExactly(ENTRY_1, ENTRY_2);
        assertThat(row.get("proposal_version")).isEqualTo(1);
        assertThat(row.get("most_recent_commit_at")).isEqualTo(BallotTimeUuid.of(ballot(1000)));
        assertThat(entries((byte[]) row.get("most_recent_commit"))).containsExactly(ENTRY_2);
        assertThat(row.get("most_recent_commit_version")).isEqualTo(1);
    }

    @Test
    void aPrunedCommitKeepsItsBallotButNoBlob() {
        persist(a, key(1), inFlight(true));
        Map<String, Object> row = rows.partition(key(1)).get(0);
        assertThat(row.get("most_recent_commit_at")).isEqualTo(BallotTimeUuid.of(ballot(1000)));
        assertThat(row).extractingByKeys("most_recent_commit", "most_recent_commit_version").containsOnlyNulls();
    }

    @Test
    void aPartitionWithOnlyAPromiseHasNoProposalOrCommit() {
        persist(a, key(1), new AcceptorState(ballot(3000), null, Decree.NONE, 0, RecentDecrees.NONE));
        Map<String, Object> row = rows.partition(key(1)).get(0);
        assertThat(row.get("in_progress_ballot")).isEqualTo(BallotTimeUuid.of(ballot(3000)));
        assertThat(row).extractingByKeys("proposal_ballot", "proposal", "proposal_version", "most_recent_commit_at",
                "most_recent_commit", "most_recent_commit_version").containsOnlyNulls();
    }

    @Test
    void aKeyHasOneRowPerTableWithRegisters() {
        persist(a, key(1), inFlight(true));
        persist(b, key(1), inFlight(false));
        persist(a, key(2), inFlight(false));
        assertThat(rows.partition(key(1))).extracting(r -> r.get("cf_id")).containsExactlyInAnyOrder(a.id(), b.id());
        assertThat(rows.partition(key(3))).isEmpty();
    }

    @Test
    void pagesWalkThePartitionsInTokenOrderWithoutRepeats() {
        List<PartitionKey> expected = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            persist(a, key(k), inFlight(true));
            expected.add(key(k));
        }
        persist(b, key(4), inFlight(true));
        expected.sort(null);

        List<PartitionKey> seen = new ArrayList<>();
        int rowsSeen = 0;
        TokenRange range = TokenRange.ALL;
        while (true) {
            List<Map<String, Object>> page = rows.partitions(range, 3);
            if (page.isEmpty()) break;
            rowsSeen += page.size();
            List<PartitionKey> keys = new ArrayList<>();
            for (Map<String, Object> row : page) {
                PartitionKey k = PartitionKey.of((ByteBuffer) row.get("row_key"));
                if (!keys.contains(k)) keys.add(k);
            }
            assertThat(keys).as("at most the first 3 partitions, in token order").hasSizeLessThanOrEqualTo(3).isSorted();
            seen.addAll(keys);
            range = range.resumeAfter(keys.get(keys.size() - 1));
        }
        assertThat(seen).isEqualTo(expected);
        assertThat(rowsSeen).as("key 4 has a row in each table").isEqualTo(21);

        TokenRange middle = new TokenRange(expected.get(5).token(), null, expected.get(9).token());
        assertThat(rows.partitions(middle, 100)).extracting(r -> PartitionKey.of((ByteBuffer) r.get("row_key")))
                .containsExactlyInAnyOrderElementsOf(expected.subList(5, 10));
    }

    private static List<Bytes> entries(byte[] blob) {
        ByteBuffer in = ByteBuffer.wrap(blob);
        List<Bytes> out = new ArrayList<>();
        for (int n = in.getInt(); n > 0; n--) {
            byte[] entry = new byte[in.getInt()];
            in.get(entry);
            out.add(Bytes.wrap(entry));
        }
        assertThat(in.hasRemaining()).as("bytes after the entries").isFalse();
        return out;
    }
}

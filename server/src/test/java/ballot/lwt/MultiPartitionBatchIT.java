package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * BATCH with conditions over several partitions and tables, on three real nodes at RF 3 through the DataStax driver
 * (docs/txn.md §11.1): every statement is written if and only if every condition holds; the answer is {@code [applied]}
 * alone when applied and the conditioned rows' current values when not; a QUORUM read after the answer sees every
 * write; concurrent transfers never create or lose money; and what the transaction cannot honour is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiPartitionBatchIT {
    private static final int ACCOUNTS = 6;
    private static final int OPENING = 1000;
    private PaxosCluster cluster;
    private CqlSession session;

    @BeforeAll
    void start() {
        cluster = PaxosCluster.start("mpbatch", 3, 1000);
        session = cluster.session();
        session.execute("CREATE KEYSPACE mp WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE mp.accounts (id int PRIMARY KEY, balance int)");
        session.execute("CREATE TABLE mp.ledger (id int, seq int, amount int, PRIMARY KEY (id, seq))");
        session.execute("CREATE TABLE mp.cnt (k int PRIMARY KEY, n counter)");
        session.execute("CREATE TABLE mp.lists (k int PRIMARY KEY, l list<int>)");
    }

    @AfterAll
    void stop() {
        if (session != null) session.close();
        if (cluster != null) cluster.close();
    }

    private int balance(int id, ConsistencyLevel cl) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT balance FROM mp.accounts WHERE id = ?", id).setConsistencyLevel(cl)).one();
        return row == null ? -1 : row.getInt(0);
    }

    private void open(int id, int balance) {
        session.execute(SimpleStatement.newInstance("INSERT INTO mp.accounts (id, balance) VALUES (?, ?)", id, balance)
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
    }

    @Test
    void aTransferAcrossPartitionsAndTablesAppliesAllOrNothing() {
        open(101, 100);
        open(102, 50);
        String transfer = "BEGIN BATCH "
                + "UPDATE mp.accounts SET balance = 70 WHERE id = 101 IF balance = 100; "
                + "UPDATE mp.accounts SET balance = 80 WHERE id = 102 IF balance = 50; "
                + "INSERT INTO mp.ledger (id, seq, amount) VALUES (101, 1, -30) IF NOT EXISTS; "
                + "APPLY BATCH";
        ResultSet applied = session.execute(SimpleStatement.newInstance(transfer).setConsistencyLevel(ConsistencyLevel.QUORUM));
        assertThat(applied.wasApplied()).isTrue();
        assertThat(applied.getColumnDefinitions().size()).as("[applied] alone, as Cassandra answers a batch").isEqualTo(1);
        // Read at QUORUM right after the answer, from every node: every write is there.
        for (int i = 0; i < 3; i++) {
            for (int[] expected : new int[][] {{101, 70}, {102, 80}}) {
                Row row = session.execute(SimpleStatement.newInstance("SELECT balance FROM mp.accounts WHERE id = ?", expected[0])
                        .setConsistencyLevel(ConsistencyLevel.QUORUM).setNode(PaxosCluster.node(session, i))).one();
                assertThat(row.getInt(0)).as("account %d read through node %d", expected[0], i).isEqualTo(expected[1]);
            }
        }
        assertThat(session.execute("SELECT amount FROM mp.ledger WHERE id = 101 AND seq = 1").one().getInt(0)).isEqualTo(-30);

        // The same transfer again: its conditions fail, nothing is written, and the answer shows the current values.
        ResultSet refused = session.execute(SimpleStatement.newInstance(transfer).setConsistencyLevel(ConsistencyLevel.QUORUM));
        assertThat(refused.wasApplied()).isFalse();
        List<String> shown = new ArrayList<>();
        for (Row r : refused) shown.add(r.getObject("id") + "=" + r.getObject("balance"));
        assertThat(shown).contains("101=70", "102=80");
        assertThat(balance(101, ConsistencyLevel.SERIAL)).isEqualTo(70);
        assertThat(balance(102, ConsistencyLevel.SERIAL)).isEqualTo(80);
    }

    @Test
    void aProtocolBatchOfPreparedStatementsOverSeveralPartitionsIsOneTransaction() {
        open(201, 10);
        open(202, 20);
        PreparedStatement debit = session.prepare("UPDATE mp.accounts SET balance = ? WHERE id = ? IF balance = ?");
        BatchStatement batch = BatchStatement.newInstance(DefaultBatchType.LOGGED, debit.bind(5, 201, 10), debit.bind(25, 202, 20));
        assertThat(session.execute(batch).wasApplied()).isTrue();
        BatchStatement stale = BatchStatement.newInstance(DefaultBatchType.LOGGED, debit.bind(0, 201, 5), debit.bind(99, 202, 21));
        assertThat(session.execute(stale).wasApplied()).isFalse();
        assertThat(balance(201, ConsistencyLevel.SERIAL)).as("the first statement's condition held, yet nothing was written").isEqualTo(5);
        assertThat(balance(202, ConsistencyLevel.SERIAL)).isEqualTo(25);
    }

    /**
     * A traced transaction is answered as an untraced one, and its trace shows each partition's steps, those a
     * partition's coordinator on another node ran included, with that node's Paxos round. Run through every node, so
     * that some steps go to another node whatever the partitions' tokens.
     */
    @Test
    void aTracedTransactionShowsStepsRunOnOtherNodes() {
        for (int id : new int[] {301, 302, 303, 304}) open(id, 10);
        List<String> remote = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String batch = "BEGIN BATCH "
                    + "UPDATE mp.accounts SET balance = " + (11 + i) + " WHERE id = 301 IF balance = " + (10 + i) + "; "
                    + "UPDATE mp.accounts SET balance = " + (11 + i) + " WHERE id = 302 IF balance = " + (10 + i) + "; "
                    + "UPDATE mp.accounts SET balance = " + (11 + i) + " WHERE id = 303 IF balance = " + (10 + i) + "; "
                    + "UPDATE mp.accounts SET balance = " + (11 + i) + " WHERE id = 304 IF balance = " + (10 + i) + "; "
                    + "APPLY BATCH";
            ResultSet rs = session.execute(SimpleStatement.newInstance(batch).setConsistencyLevel(ConsistencyLevel.QUORUM)
                    .setNode(PaxosCluster.node(session, i)).setTracing(true));
            assertThat(rs.wasApplied()).as("the traced transaction through node %d", i).isTrue();
            var events = rs.getExecutionInfo().getQueryTrace().getEvents();
            List<String> activities = events.stream().map(e -> e.getActivity()).toList();
            assertThat(activities).as("through node %d", i).anyMatch(a -> a.startsWith("Transaction ") && a.endsWith(" committed"));
            long sent = activities.stream().filter(a -> a.startsWith("Transaction steps ") && a.contains(" sent to ")).count();
            long answered = activities.stream().filter(a -> a.startsWith("Transaction steps ") && a.contains(" answered [")).count();
            long steps = activities.stream().filter(a -> a.startsWith("Transaction steps ") && (a.endsWith(" here") || a.contains(" sent to "))).count();
            assertThat(answered).as("every group of steps answered, through node %d: %s", i, activities).isEqualTo(steps);
            if (sent > 0) {
                String coordinator = PaxosCluster.ip(i);
                remote.addAll(events.stream().filter(e -> !e.getSourceAddress().getAddress().getHostAddress().equals(coordinator))
                        .map(e -> e.getActivity()).toList());
            }
        }
        assertThat(remote).as("events of the nodes that ran steps sent to them")
                .anyMatch(a -> a.startsWith("Starting Paxos (transaction ") && a.contains(" on mp.accounts"))
                .anyMatch(a -> a.startsWith("Paxos (transaction ") && a.contains(" APPLIED after "));
    }

    /** Concurrent transfers between few accounts (read, then a conditional batch on both): the total never changes. */
    @Test
    void concurrentTransfersConserveTheTotal() throws Exception {
        for (int i = 0; i < ACCOUNTS; i++) open(i, OPENING);
        PreparedStatement read = session.prepare(SimpleStatement.newInstance("SELECT balance FROM mp.accounts WHERE id = ?")
                .setConsistencyLevel(ConsistencyLevel.SERIAL));
        PreparedStatement set = session.prepare("UPDATE mp.accounts SET balance = ? WHERE id = ? IF balance = ?");
        AtomicInteger applied = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(6);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            Random random = new Random(c);
            done.add(clients.submit(() -> {
                for (int n = 0; n < 25; n++) {
                    int from = random.nextInt(ACCOUNTS);
                    int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    int amount = 1 + random.nextInt(20);
                    try {
                        int a = session.execute(read.bind(from)).one().getInt(0);
                        int b = session.execute(read.bind(to)).one().getInt(0);
                        if (a < amount) continue;
                        BatchStatement transfer = BatchStatement.newInstance(DefaultBatchType.LOGGED,
                                set.bind(a - amount, from, a), set.bind(b + amount, to, b));
                        if (session.execute(transfer).wasApplied()) applied.incrementAndGet();
                    } catch (WriteTimeoutException | ReadTimeoutException unknown) {
                        // contended and undecided in time: it may apply or not, and the total holds either way
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) f.get(5, TimeUnit.MINUTES);
        clients.shutdown();
        int total = 0;
        for (int i = 0; i < ACCOUNTS; i++) total += balance(i, ConsistencyLevel.SERIAL);
        assertThat(applied.get()).as("some transfers went through").isPositive();
        assertThat(total).isEqualTo(ACCOUNTS * OPENING);
    }

    /**
     * An index query right after a transaction's answer sees its writes, though they may still be resolved in the
     * background: replicas report the partitions of the range an intent holds, and the coordinator waits for their
     * transactions and asks again (docs/txn.md §10). Each round moves two rows to a new tag, then looks them up by it.
     */
    @Test
    void indexQueriesRightAfterTheAnswerSeeEveryWrite() {
        session.execute("CREATE TABLE mp.tagged (id int PRIMARY KEY, tag text)");
        session.execute("CREATE INDEX ON mp.tagged (tag)");
        PreparedStatement open = session.prepare(SimpleStatement.newInstance("INSERT INTO mp.tagged (id, tag) VALUES (?, 't0')")
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
        session.execute(open.bind(1));
        session.execute(open.bind(2));
        PreparedStatement retag = session.prepare(SimpleStatement.newInstance("BEGIN BATCH "
                + "UPDATE mp.tagged SET tag = ? WHERE id = 1 IF tag = ?; UPDATE mp.tagged SET tag = ? WHERE id = 2 IF tag = ?; "
                + "APPLY BATCH").setConsistencyLevel(ConsistencyLevel.QUORUM));
        PreparedStatement byTag = session.prepare(SimpleStatement.newInstance("SELECT id FROM mp.tagged WHERE tag = ?")
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
        for (int round = 1; round <= 20; round++) {
            String was = "t" + (round - 1), now = "t" + round;
            assertThat(session.execute(retag.bind(now, was, now, was)).wasApplied()).as("round %d", round).isTrue();
            List<Integer> found = new ArrayList<>();
            for (Row r : session.execute(byTag.bind(now))) found.add(r.getInt(0));
            assertThat(found).as("rows tagged %s right after the answer", now).containsExactlyInAnyOrder(1, 2);
        }
    }

    /**
     * A transaction is answered at its commit point, before its writes are resolved (docs/txn.md §4.2, §10): a QUORUM
     * read right after the answer, of one partition or a scan of the table, meets the intents still held and waits
     * for their resolution, so it sees every write. Transfers go back and forth between two accounts, each followed at
     * once by reads.
     */
    @Test
    void quorumReadsRightAfterTheAnswerSeeEveryWrite() {
        session.execute("CREATE TABLE mp.pair (id int PRIMARY KEY, balance int)");
        PreparedStatement open = session.prepare(SimpleStatement.newInstance("INSERT INTO mp.pair (id, balance) VALUES (?, ?)")
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
        session.execute(open.bind(1, OPENING));
        session.execute(open.bind(2, OPENING));
        PreparedStatement set = session.prepare("UPDATE mp.pair SET balance = ? WHERE id = ? IF balance = ?");
        PreparedStatement one = session.prepare(SimpleStatement.newInstance("SELECT balance FROM mp.pair WHERE id = ?")
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
        SimpleStatement scan = SimpleStatement.newInstance("SELECT id, balance FROM mp.pair").setConsistencyLevel(ConsistencyLevel.QUORUM);
        int a = OPENING;
        int b = OPENING;
        for (int n = 0; n < 40; n++) {
            int amount = n % 2 == 0 ? 7 : -7;
            BatchStatement transfer = BatchStatement.newInstance(DefaultBatchType.LOGGED, set.bind(a - amount, 1, a), set.bind(b + amount, 2, b))
                    .setConsistencyLevel(ConsistencyLevel.QUORUM);
            assertThat(session.execute(transfer).wasApplied()).isTrue();
            a -= amount;
            b += amount;
            if (n % 2 == 0) {
                assertThat(session.execute(one.bind(2)).one().getInt(0)).as("transfer %d, the second account", n).isEqualTo(b);
                assertThat(session.execute(one.bind(1)).one().getInt(0)).as("transfer %d, the first account", n).isEqualTo(a);
            } else {
                java.util.Map<Integer, Integer> seen = new java.util.TreeMap<>();
                for (Row row : session.execute(scan)) seen.put(row.getInt(0), row.getInt(1));
                assertThat(seen).as("transfer %d, a scan", n).containsExactlyEntriesOf(new java.util.TreeMap<>(java.util.Map.of(1, a, 2, b)));
            }
        }
    }

    /**
     * Steps run on each partition's first replica, which prepares the batch's statements again from their text
     * (docs/txn.md §11.1): the same text after the table was dropped and created again under its name writes the new
     * table; and a count right after a batch of inserts into new partitions sees every row (a scan meets the intents
     * of partitions that have no rows yet, §10).
     */
    @Test
    void theSameBatchAfterItsTableIsCreatedAgainWritesTheNewTable() {
        StringBuilder batch = new StringBuilder("BEGIN BATCH ");
        for (int id = 1; id <= 6; id++) batch.append("INSERT INTO mp.again (id, v) VALUES (").append(id).append(", 1) IF NOT EXISTS; ");
        SimpleStatement insert = SimpleStatement.newInstance(batch.append("APPLY BATCH").toString()).setConsistencyLevel(ConsistencyLevel.QUORUM);
        SimpleStatement count = SimpleStatement.newInstance("SELECT count(*) FROM mp.again").setConsistencyLevel(ConsistencyLevel.QUORUM);
        session.execute("CREATE TABLE mp.again (id int PRIMARY KEY, v int)");
        assertThat(session.execute(insert).wasApplied()).isTrue();
        assertThat(session.execute(count).one().getLong(0)).isEqualTo(6);
        session.execute("DROP TABLE mp.again");
        session.execute("CREATE TABLE mp.again (id int PRIMARY KEY, v int)");
        assertThat(session.execute(insert).wasApplied()).as("the new table is empty").isTrue();
        assertThat(session.execute(count).one().getLong(0)).isEqualTo(6);
    }

    @Test
    void refusesWhatATransactionCannotHonour() {
        assertRefused("BEGIN BATCH UPDATE mp.accounts SET balance = 1 WHERE id = 1 IF balance = 1; "
                + "UPDATE mp.accounts SET balance = 1 WHERE id IN (2, 3); APPLY BATCH",
                "Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)");
        StringBuilder many = new StringBuilder("BEGIN BATCH ");
        for (int i = 0; i < 33; i++) many.append("UPDATE mp.accounts SET balance = 1 WHERE id = ").append(1000 + i).append(" IF balance = 1; ");
        assertRefused(many.append("APPLY BATCH").toString(), "A transaction may involve at most 32 partitions; this one involves 33");
        // A statement error in one participant is the batch's error, and nothing is written.
        session.execute("INSERT INTO mp.lists (k, l) VALUES (1, [1])");
        assertRefused("BEGIN BATCH UPDATE mp.lists SET l[5] = 2 WHERE k = 1 IF l = [1]; INSERT INTO mp.lists (k, l) VALUES (2, [2]) IF NOT EXISTS; "
                + "APPLY BATCH", "List index 5 out of bound, list has size 1");
        assertThat(session.execute(SimpleStatement.newInstance("SELECT l FROM mp.lists WHERE k = 2").setConsistencyLevel(ConsistencyLevel.SERIAL)).one())
                .as("nothing written").isNull();
    }

    private void assertRefused(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessageContaining(message);
    }
}

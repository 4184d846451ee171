package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * LWT semantics on three real nodes in this JVM with replication factor 3, statements coordinated by every node in
 * turn; and with one node stopped: a quorum still decides, answers stay linearizable across coordinators, and the
 * restarted node coordinates serial reads that see everything decided while it was down.
 */
class PaxosClusterIT extends LwtSemantics {
    @Override
    PaxosCluster startCluster() {
        return PaxosCluster.start("paxos-three", 3, 5000);
    }

    /**
     * docs/paxos.md §7 on real nodes: sequential updates of one partition through one coordinator (a replica) wait
     * 1 round trip at ANY, 2 at QUORUM, and 1 at ONE when the coordinator's own replica applies first, once the
     * promise is held; SERIAL reads wait 1. Measured from the engine's per-request answers (DEBUG).
     */
    @Test
    void roundTripsPerCommitLevelMatchTheDesign() {
        session.execute("CREATE TABLE lwt.rtt (k int PRIMARY KEY, v int)");
        Logger engineLog = (Logger) LoggerFactory.getLogger(PaxosEngine.class);
        ListAppender<ILoggingEvent> answers = new ListAppender<>();
        answers.start();
        Level level = engineLog.getLevel();
        engineLog.setLevel(Level.DEBUG);
        engineLog.addAppender(answers);
        try {
            int k = 0;
            for (ConsistencyLevel commit : List.of(ConsistencyLevel.ANY, ConsistencyLevel.ONE, ConsistencyLevel.QUORUM)) {
                k++;
                assertThat(exec(0, "INSERT INTO lwt.rtt (k, v) VALUES (?, 0) IF NOT EXISTS", k).wasApplied()).isTrue();
                answers.list.clear();
                for (int i = 1; i <= 30; i++) {
                    SimpleStatement update = SimpleStatement.newInstance("UPDATE lwt.rtt SET v = ? WHERE k = ? IF v = ?", i, k, i - 1)
                            .setConsistencyLevel(commit);
                    assertThat(session.execute(on(0, update)).wasApplied()).isTrue();
                }
                List<Integer> trips = roundTrips(answers.list);
                System.out.println("round trips per applied update at " + commit + ": " + trips);
                assertThat(trips).hasSize(30);
                if (commit == ConsistencyLevel.ONE) {
                    // The first replica to apply answers: normally this node's (no round trip), but on this shared disk a
                    // remote one sometimes commits first, which the core counts as a second round trip.
                    assertThat(trips).as("at ONE").allMatch(n -> n == 1 || n == 2);
                } else {
                    // QUORUM too: this node's replica votes first, and the remote acceptance that decides also applies
                    // (docs/paxos.md §4.6.1).
                    int expected = 1;
                    assertThat(trips.subList(1, trips.size())).as("steady state at %s", commit).containsOnly(expected);
                    assertThat(trips.get(0)).as("the first after an insert at %s", commit).isBetween(expected, expected + 1);
                }
            }
            answers.list.clear();
            for (int i = 0; i < 30; i++) assertThat(serial(0, "SELECT v FROM lwt.rtt WHERE k = ?", k).one().getInt("v")).isEqualTo(30);
            List<Integer> reads = roundTrips(answers.list);
            System.out.println("round trips per SERIAL read: " + reads);
            assertThat(reads).hasSize(30).containsOnly(1);
        } finally {
            engineLog.detachAppender(answers);
            engineLog.setLevel(level);
        }
    }

    private static List<Integer> roundTrips(List<ILoggingEvent> events) {
        List<Integer> trips = new ArrayList<>();
        for (ILoggingEvent e : List.copyOf(events)) {
            if (e.getMessage().startsWith("cas answered")) trips.add((Integer) e.getArgumentArray()[4]);
        }
        return trips;
    }

    @Test
    void aStoppedReplicaLeavesAQuorumThatStaysLinearizable() {
        session.execute("CREATE TABLE lwt.down (k int PRIMARY KEY, v int)");
        assertThat(exec(0, "INSERT INTO lwt.down (k, v) VALUES (1, 0) IF NOT EXISTS").wasApplied()).isTrue();
        cluster.stop(2);
        try {
            PaxosCluster.awaitState(session, 2, NodeState.DOWN);
            for (int i = 1; i <= 20; i++) {
                SimpleStatement update = SimpleStatement.newInstance("UPDATE lwt.down SET v = ? WHERE k = 1 IF v = ?", i, i - 1)
                        .setConsistencyLevel(ConsistencyLevel.QUORUM);
                // Coordinators alternate between the two running nodes.
                assertThat(session.execute(on(i % 2, update)).wasApplied()).as("update %d with node 3 down", i).isTrue();
                assertThat(serial((i + 1) % 2, "SELECT v FROM lwt.down WHERE k = 1").one().getInt("v"))
                        .as("the other coordinator's serial read sees update %d", i).isEqualTo(i);
                assertThat(exec((i + 1) % 2, "UPDATE lwt.down SET v = 0 WHERE k = 1 IF v = ?", i - 1).wasApplied())
                        .as("a condition on the value before update %d does not hold", i).isFalse();
            }
            SimpleStatement all = SimpleStatement.newInstance("UPDATE lwt.down SET v = 0 WHERE k = 1 IF v = 20")
                    .setConsistencyLevel(ConsistencyLevel.ALL);
            // The driver's retry policy tries the next node on Unavailable; a pinned statement has none.
            assertThatThrownBy(() -> session.execute(on(0, all))).as("commit at ALL needs the stopped replica")
                    .hasMessageContaining(UnavailableException.class.getName())
                    .hasMessageContaining("at consistency ALL (3 required but only 2 alive)");
            // A transaction at ALL too (docs/txn.md §10): refused before it places anything, not committed at a quorum.
            assertThat(exec(0, "INSERT INTO lwt.down (k, v) VALUES (10, 0) IF NOT EXISTS").wasApplied()).isTrue();
            String batch = "BEGIN BATCH UPDATE lwt.down SET v = 1 WHERE k = 10 IF v = 0; INSERT INTO lwt.down (k, v) VALUES (11, 0) IF NOT EXISTS; APPLY BATCH";
            assertThatThrownBy(() -> session.execute(on(1, SimpleStatement.newInstance(batch).setConsistencyLevel(ConsistencyLevel.ALL))))
                    .as("a two-partition batch at ALL needs the stopped replica")
                    .hasMessageContaining(UnavailableException.class.getName())
                    .hasMessageContaining("at consistency ALL (3 required but only 2 alive)");
            String txn = "BEGIN TRANSACTION LET a = (SELECT v FROM lwt.down WHERE k = 10); IF a.v = 0 THEN "
                    + "UPDATE lwt.down SET v = 2 WHERE k = 10; INSERT INTO lwt.down (k, v) VALUES (12, 0); END IF COMMIT TRANSACTION";
            assertThatThrownBy(() -> session.execute(on(0, SimpleStatement.newInstance(txn).setConsistencyLevel(ConsistencyLevel.ALL))))
                    .as("BEGIN TRANSACTION at ALL").hasMessageContaining(UnavailableException.class.getName())
                    .hasMessageContaining("at consistency ALL (3 required but only 2 alive)");
            assertThat(serial(0, "SELECT v FROM lwt.down WHERE k = 10").one().getInt("v")).as("nothing of either applied").isZero();
            assertThat(serial(1, "SELECT v FROM lwt.down WHERE k = 11").one()).isNull();
            assertThat(serial(0, "SELECT v FROM lwt.down WHERE k = 12").one()).isNull();
            assertThat(session.execute(on(1, SimpleStatement.newInstance(batch).setConsistencyLevel(ConsistencyLevel.QUORUM))).wasApplied())
                    .as("the same batch at QUORUM").isTrue();
        } finally {
            cluster.start(2);
        }
        PaxosCluster.awaitState(session, 2, NodeState.UP);
        assertThat(serial(2, "SELECT v FROM lwt.down WHERE k = 1").one().getInt("v"))
                .as("the restarted node's serial read sees what was decided without it").isEqualTo(20);
        assertThat(exec(2, "UPDATE lwt.down SET v = 21 WHERE k = 1 IF v = 20").wasApplied()).isTrue();
        assertThat(serial(0, "SELECT v FROM lwt.down WHERE k = 1").one().getInt("v")).isEqualTo(21);
    }
}

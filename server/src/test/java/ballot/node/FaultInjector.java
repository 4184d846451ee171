package ballot.node;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * Faults on a running cluster of node processes, in cycles while time remains: SIGKILL of a random node and its
 * restart on its data, then SIGSTOP of another node for a few seconds and SIGCONT. One node at a time is faulty, so
 * a quorum always could serve; each cycle ends when every node's failure detector sees every node alive again, so
 * the next fault starts from a healed cluster. Events are logged with their time since the run began.
 */
final class FaultInjector implements Callable<Void> {
    private static final Duration HEAL_WAIT = Duration.ofSeconds(90);

    private final List<NodeProcess> nodes;
    private final CqlSession session;
    private final SplittableRandom random;
    private final long startNanos;
    private final long lastCycleStartNanos;
    private final List<String> events = new ArrayList<>();
    private int kills;
    private int pauses;
    private volatile long healedNanos;

    /** @param lastCycleStartNanos no cycle starts after this time since the run began (the load goes on after it) */
    FaultInjector(List<NodeProcess> nodes, CqlSession session, long seed, long startNanos, long lastCycleStartNanos) {
        this.nodes = nodes;
        this.session = session;
        this.random = new SplittableRandom(seed);
        this.startNanos = startNanos;
        this.lastCycleStartNanos = lastCycleStartNanos;
    }

    @Override
    public Void call() throws Exception {
        pauseMillis(2000, 4000); // the load warms up on a healthy cluster
        do {
            NodeProcess killed = nodes.get(random.nextInt(nodes.size()));
            log("kill -9 " + killed.address);
            killed.kill();
            kills++;
            pauseMillis(500, 2500);
            killed.start();
            log("restarted " + killed.address);
            awaitHealed();
            pauseMillis(1000, 3000);

            List<NodeProcess> others = new ArrayList<>(nodes);
            others.remove(killed);
            NodeProcess paused = others.get(random.nextInt(others.size()));
            log("kill -STOP " + paused.address);
            paused.pause();
            pauses++;
            pauseMillis(2000, 5000);
            paused.resume();
            log("kill -CONT " + paused.address);
            awaitHealed();
            healedNanos = now();
            pauseMillis(1000, 3000);
        } while (now() < lastCycleStartNanos);
        return null;
    }

    int kills() {
        return kills;
    }

    int pauses() {
        return pauses;
    }

    /** When the last cycle's faults had healed, in nanoseconds since the run began. */
    long healedNanos() {
        return healedNanos;
    }

    synchronized List<String> events() {
        return List.copyOf(events);
    }

    /**
     * Waits until every node, asked through the driver, lists all nodes UP in {@code system_views.nodes} (its failure
     * detector, which Paxos asks too). Until then a coordinator may count a dead replica alive, or a live one dead.
     */
    void awaitHealed() throws InterruptedException {
        NodeProcess.await("every node sees " + nodes.size() + " nodes up (events: " + events() + ")", HEAL_WAIT, this::allSeeAllUp);
        log("healed: every node sees " + nodes.size() + " nodes up");
    }

    private boolean allSeeAllUp() {
        for (NodeProcess p : nodes) {
            List<Row> rows = session.execute(SimpleStatement.newInstance("SELECT status FROM system_views.nodes")
                    .setNode(p.driverNode(session))).all();
            if (rows.size() != nodes.size() || !rows.stream().allMatch(r -> "UP".equals(r.getString("status")))) return false;
        }
        return true;
    }

    private void pauseMillis(int min, int max) throws InterruptedException {
        Thread.sleep(random.nextInt(min, max));
    }

    private synchronized void log(String event) {
        String line = String.format(Locale.ROOT, "[%7.1f s] %s", now() / 1e9, event);
        events.add(line);
        System.out.println("fault " + line);
    }

    private long now() {
        return System.nanoTime() - startNanos;
    }
}

package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cluster.SimCluster.Node;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Membership in simulated time over a lossy, partitionable network (docs/membership.md §6). Each test runs from a seed
 * printed on failure; {@code -Dballot.sim.seed=} replays it.
 */
class MembershipSimulationTest {
    private static final Duration LOSSY_DELAY_MAX = Duration.ofMillis(300);

    private static SimCluster lossyCluster(long seed, int size) {
        SimCluster cluster = new SimCluster(seed, size);
        cluster.network.lossy(0.05, Duration.ofMillis(1), LOSSY_DELAY_MAX);
        return cluster;
    }

    private static void converge(SimCluster cluster) {
        assertThat(cluster.world.runUntil(cluster::converged, Duration.ofSeconds(60))).as("converged%s", cluster.describe()).isTrue();
    }

    @Test
    void nodesConvergeToOneViewOverALossyNetwork() {
        for (int run = 0; run < 2; run++) {
            SimSeed.repeat(seed -> {
                SimCluster cluster = lossyCluster(seed, 5);
                cluster.startAll();
                converge(cluster);
                for (Node node : cluster.nodes) {
                    assertThat(node.gossiper.self().hostId()).isEqualTo(node.hostId);
                    assertThat(node.gossiper.member(cluster.node(3).hostId).tokens()).isEqualTo(cluster.node(3).tokens);
                    assertThat(node.gossiper.member(cluster.node(3).hostId).internode()).isEqualTo(cluster.node(3).address);
                }
                UUID schema = UUID.randomUUID();
                cluster.node(2).gossiper.schemaVersionChanged(schema);
                cluster.node(4).gossiper.loadChanged(12345);
                boolean spread = cluster.world.runUntil(() -> cluster.nodes.stream().allMatch(n ->
                        schema.equals(n.gossiper.member(cluster.node(2).hostId).schemaVersion())
                                && n.gossiper.load(cluster.node(4).hostId) == 12345), Duration.ofSeconds(30));
                assertThat(spread).as("schema version and load spread%s", cluster.describe()).isTrue();
                assertThat(cluster.node(0).events).filteredOn(e -> e.startsWith("changed n2")).isNotEmpty();
                cluster.world.runFor(Duration.ofSeconds(10));
                assertThat(cluster.converged()).as("still converged%s", cluster.describe()).isTrue();
                assertThat(cluster.network.dropped()).as("the network dropped messages").isPositive();
            });
        }
    }

    @Test
    void partitionedNodeIsMarkedDownAndComesBackAfterHealing() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = lossyCluster(seed, 4);
            cluster.startAll();
            converge(cluster);
            Node isolated = cluster.node(3);
            List<Node> rest = cluster.nodes.subList(0, 3);
            cluster.network.partition(Set.of(isolated.address), cluster.addresses());
            boolean down = cluster.world.runUntil(() -> rest.stream().noneMatch(n -> n.gossiper.isAlive(isolated.hostId))
                    && rest.stream().noneMatch(n -> isolated.gossiper.isAlive(n.hostId)), Duration.ofSeconds(120));
            assertThat(down).as("both sides convict%s", cluster.describe()).isTrue();
            for (Node observer : rest) {
                for (Node other : rest) assertThat(observer.gossiper.isAlive(other.hostId)).as("%s sees %s up%s", observer, other, cluster.describe()).isTrue();
            }
            assertThat(cluster.node(0).gossiper.member(isolated.hostId)).as("a down node stays a member").isNotNull();
            assertThat(cluster.network.partitioned()).isPositive();

            cluster.network.heal();
            converge(cluster);
            assertThat(cluster.node(0).events).containsSubsequence("down n3", "up n3");
            assertThat(isolated.events).containsSubsequence("down n0", "up n0");
        });
    }

    @Test
    void healthyNodesAreNotConvictedUnderLossAndDelay() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = lossyCluster(seed, 4);
            cluster.startAll();
            converge(cluster);
            cluster.world.runFor(Duration.ofMinutes(5));
            assertThat(cluster.converged()).as("still converged%s", cluster.describe()).isTrue();
            for (Node node : cluster.nodes) {
                assertThat(node.events).as("%s never saw a false down", node).noneMatch(e -> e.startsWith("down"));
            }
        });
    }

    @Test
    void restartedNodeIsAcceptedWithItsNewGeneration() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = lossyCluster(seed, 3);
            cluster.startAll();
            converge(cluster);
            Node restarted = cluster.node(2);
            restarted.crash();
            boolean down = cluster.world.runUntil(() -> !cluster.node(0).gossiper.isAlive(restarted.hostId)
                    && !cluster.node(1).gossiper.isAlive(restarted.hostId), Duration.ofSeconds(120));
            assertThat(down).as("a crashed node is convicted%s", cluster.describe()).isTrue();

            restarted.start();
            // before gossip resumes the node knows the cluster from its persisted peers
            cluster.world.runFor(Duration.ofMillis(1));
            assertThat(restarted.gossiper.members()).extracting(NodeInfo::hostId)
                    .contains(cluster.node(0).hostId, cluster.node(1).hostId);
            converge(cluster);
            assertThat(cluster.node(0).gossiper.member(restarted.hostId).tokens()).isEqualTo(restarted.tokens);
            assertThat(cluster.node(0).events).containsSubsequence("down n2", "up n2");
        });
    }

    @Test
    void cleanlyStoppedNodeIsMarkedDownAtOnce() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 3);
            cluster.startAll();
            converge(cluster);
            cluster.node(1).stop();
            boolean down = cluster.world.runUntil(() -> !cluster.node(0).gossiper.isAlive(cluster.node(1).hostId)
                    && !cluster.node(2).gossiper.isAlive(cluster.node(1).hostId), Duration.ofSeconds(3));
            assertThat(down).as("peers hear of the shutdown well before phi would convict%s", cluster.describe()).isTrue();
            cluster.world.runFor(Duration.ofSeconds(30));
            assertThat(cluster.node(0).gossiper.isAlive(cluster.node(1).hostId)).as("stays down").isFalse();
            cluster.node(1).start();
            converge(cluster);
        });
    }

    @Test
    void nodeOfAnotherClusterIsRefused() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 3);
            cluster.startAll();
            converge(cluster);
            Node stranger = cluster.add();
            stranger.clusterName = "other";
            stranger.start();
            cluster.world.runUntil(() -> stranger.started.isDone(), Duration.ofSeconds(60));
            assertThat(stranger.started).isCompletedExceptionally();
            assertThat(failure(stranger.started)).isInstanceOf(ClusterStartException.class)
                    .hasMessageContaining("cannot reach any seed").hasMessageContaining("cluster name mismatch");
            cluster.world.runFor(Duration.ofSeconds(10));
            for (Node node : cluster.nodes.subList(0, 3)) {
                assertThat(node.gossiper.member(stranger.hostId)).as("%s never lists the stranger", node).isNull();
            }
            assertThat(cluster.converged(cluster.nodes.subList(0, 3))).isTrue();
        });
    }

    @Test
    void nodeThatCannotReachAnySeedRefusesToStart() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 2);
            cluster.node(1).start(); // its seed, node 0, never starts
            cluster.world.runUntil(() -> cluster.node(1).started.isDone(), Duration.ofSeconds(60));
            assertThat(failure(cluster.node(1).started)).isInstanceOf(ClusterStartException.class)
                    .hasMessageContaining("cannot reach any seed").hasMessageContaining("127.0.0.1:7000");
        });
    }

    @Test
    void seedThatListsOnlyItselfStartsANewCluster() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 1);
            cluster.node(0).start();
            cluster.world.runFor(Duration.ofMillis(1));
            assertThat(cluster.node(0).started).isCompleted();
            assertThat(cluster.node(0).gossiper.members()).extracting(NodeInfo::hostId).containsExactly(cluster.node(0).hostId);
        });
    }

    @Test
    void seedsStartingTogetherFormOneCluster() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = lossyCluster(seed, 3);
            List<java.net.InetSocketAddress> seeds = List.of(cluster.node(0).address, cluster.node(1).address);
            for (Node node : cluster.nodes) node.seeds = seeds;
            cluster.startAll();
            converge(cluster);
        });
    }

    @Test
    void newNodeWithTheAddressOfAnotherRefusesToStart() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 3);
            cluster.startAll();
            converge(cluster);
            Node wiped = cluster.node(2);
            UUID old = wiped.hostId;
            wiped.crash();
            wiped.hostId = UUID.randomUUID(); // its data directory was replaced
            wiped.start();
            cluster.world.runUntil(() -> wiped.started.isDone(), Duration.ofSeconds(60));
            assertThat(failure(wiped.started)).isInstanceOf(ClusterStartException.class)
                    .hasMessageContaining("belongs to node host_id=" + old);
            assertThat(cluster.node(0).gossiper.member(wiped.hostId)).isNull();
        });
    }

    @Test
    void decommissionedNodeDisappearsAndCannotRestart() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = lossyCluster(seed, 4);
            cluster.startAll();
            converge(cluster);
            Node leaving = cluster.node(3);
            boolean[] handedOver = {false};
            CompletableFuture<Void> done = leaving.gossiper.decommission(() -> {
                CompletableFuture<Void> handOver = new CompletableFuture<>();
                cluster.world.at(Duration.ofSeconds(10).toNanos(), () -> { // streaming takes a while
                    handedOver[0] = true;
                    handOver.complete(null);
                });
                return handOver;
            });
            List<Node> rest = cluster.nodes.subList(0, 3);
            boolean gone = cluster.world.runUntil(() -> done.isDone()
                    && rest.stream().allMatch(n -> n.gossiper.member(leaving.hostId) == null), Duration.ofSeconds(60));
            assertThat(gone).as("everyone forgets the node%s", cluster.describe()).isTrue();
            assertThat(done).isCompleted();
            assertThat(handedOver[0]).isTrue();
            for (Node node : rest) {
                assertThat(node.events).contains("left n3");
                assertThat(node.store.peers()).doesNotContainKey(leaving.hostId);
            }
            for (Node node : rest) {
                assertThat(node.events).as("%s saw the node leaving while it streamed", node).containsSubsequence("changed n3 LEAVING", "left n3");
            }
            leaving.crash();
            cluster.world.runFor(Duration.ofSeconds(60));
            assertThat(cluster.converged(rest)).as("the rest converge without it%s", cluster.describe()).isTrue();
            leaving.start();
            cluster.world.runUntil(() -> leaving.started.isDone(), Duration.ofSeconds(5));
            assertThat(failure(leaving.started)).hasMessageContaining("decommissioned");
        });
    }

    @Test
    void leftNodeIsForgottenEverywhereAtItsExpiryAndNotRelearned() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = lossyCluster(seed, 4);
            cluster.node(3).leftRetention = Duration.ofMinutes(2);
            cluster.startAll();
            converge(cluster);
            Node leaving = cluster.node(3);
            CompletableFuture<Void> done = leaving.gossiper.decommission(() -> CompletableFuture.completedFuture(null));
            cluster.world.runUntil(done::isDone, Duration.ofSeconds(10));
            leaving.crash();
            List<Node> rest = cluster.nodes.subList(0, 3);
            cluster.world.runFor(Duration.ofMinutes(1));
            for (Node node : rest) assertThat(node.gossiper.gossipedHostIds()).as("%s relays the LEFT state", node).contains(leaving.hostId);
            cluster.world.runFor(Duration.ofMinutes(2));
            for (Node node : rest) assertThat(node.gossiper.gossipedHostIds()).as("%s forgot it", node).doesNotContain(leaving.hostId);
            cluster.world.runFor(Duration.ofMinutes(5));
            for (Node node : rest) assertThat(node.gossiper.gossipedHostIds()).as("%s never relearns it", node).doesNotContain(leaving.hostId);
            assertThat(cluster.converged(rest)).isTrue();
        });
    }

    @Test
    void lastNodeCannotBeDecommissioned() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 1);
            cluster.node(0).start();
            CompletableFuture<Void> done = cluster.node(0).gossiper.decommission(() -> CompletableFuture.completedFuture(null));
            cluster.world.runUntil(done::isDone, Duration.ofSeconds(5));
            assertThat(failure(done)).isInstanceOf(IllegalStateException.class).hasMessageContaining("no other live NORMAL node");
            assertThat(cluster.node(0).gossiper.self().status()).isEqualTo(NodeStatus.NORMAL);
        });
    }

    @Test
    void failedHandOverReturnsTheNodeToNormal() {
        SimSeed.repeat(seed -> {
            SimCluster cluster = new SimCluster(seed, 2);
            cluster.startAll();
            converge(cluster);
            CompletableFuture<Void> done = cluster.node(1).gossiper.decommission(
                    () -> CompletableFuture.failedFuture(new IllegalStateException("stream failed")));
            cluster.world.runUntil(done::isDone, Duration.ofSeconds(10));
            assertThat(failure(done)).hasMessageContaining("stream failed");
            boolean normal = cluster.world.runUntil(() -> cluster.node(0).gossiper.member(cluster.node(1).hostId).status() == NodeStatus.NORMAL,
                    Duration.ofSeconds(10));
            assertThat(normal).isTrue();
            assertThat(cluster.node(0).events).containsSubsequence("changed n1 LEAVING", "changed n1 NORMAL");
        });
    }

    @Test
    void sameSeedGivesTheSameRun() {
        long seed = SimSeed.next();
        SimSeed.run(seed, s -> assertThat(trace(s)).isEqualTo(trace(s)));
    }

    private static List<String> trace(long seed) {
        SimCluster cluster = lossyCluster(seed, 4);
        cluster.startAll();
        cluster.world.runFor(Duration.ofSeconds(20));
        cluster.network.partition(Set.of(cluster.node(1).address), cluster.addresses());
        cluster.world.runFor(Duration.ofSeconds(40));
        return cluster.nodes.stream().flatMap(n -> n.events.stream().map(e -> n + " " + e)).toList();
    }

    private static Throwable failure(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        try {
            future.get();
            throw new AssertionError("not failed");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}

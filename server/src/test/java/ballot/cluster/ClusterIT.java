package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.net.Codec;
import ballot.net.Codecs;
import ballot.net.Verb;
import ballot.storage.StorageEngine;
import io.netty.buffer.ByteBuf;
import ballot.storage.StorageOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Cluster} on real sockets (127.0.0.1, .2, .3, ephemeral ports) and real storage, gossiping every 100 ms. */
class ClusterIT {
    private static final Duration INTERVAL = Duration.ofMillis(100);

    /** A verb of the node's own, registered before joining: answers with the host id. */
    private static final Verb<Void, String> HOST_ID = new Verb<>(16, "TEST_HOST_ID", Codecs.EMPTY, new Codec<>() {
        @Override
        public void encode(String value, ByteBuf out) {
            Codecs.writeString(out, value);
        }

        @Override
        public String decode(ByteBuf in) {
            return Codecs.readString(in);
        }
    });

    @TempDir
    Path directory;
    private final List<AutoCloseable> resources = new ArrayList<>();

    /** One node's durable identity; {@link #start} runs a process of it. */
    private final class Node {
        final String ip;
        final UUID hostId = UUID.randomUUID();
        final List<Long> tokens = List.of(new SplittableRandom().nextLong(), new SplittableRandom().nextLong());
        final StorageEngine storage;
        int generation = 1_700_000_000;
        int port;
        String clusterName = "it";
        List<InetSocketAddress> seeds = List.of();
        Cluster cluster;

        Node(String ip) {
            this.ip = ip;
            storage = StorageEngine.open(new StorageOptions(directory.resolve(ip + "-" + hostId), false, 10_000, 8L << 20, 0));
            resources.add(storage);
        }

        Cluster start() {
            generation++;
            ClusterOptions options = ClusterOptions.builder(clusterName, hostId, generation, tokens, new InetSocketAddress(ClusterIT.address(ip), port))
                    .seeds(seeds).gossipInterval(INTERVAL).joinTimeout(Duration.ofSeconds(2)).build();
            cluster = Cluster.start(options, storage, new UUID(0, 7), messaging -> messaging.handle(HOST_ID, (request, from) ->
                    CompletableFuture.completedFuture(hostId.toString())));
            resources.add(cluster);
            port = cluster.messaging().localAddress().getPort();
            return cluster;
        }

        InetSocketAddress address() {
            return cluster.messaging().localAddress();
        }

        Membership membership() {
            return cluster.membership();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) resources.get(i).close();
    }

    private List<Node> threeNodes() {
        Node seed = new Node("127.0.0.1");
        seed.start();
        Node second = new Node("127.0.0.2");
        Node third = new Node("127.0.0.3");
        second.seeds = third.seeds = List.of(seed.address());
        second.start();
        third.start();
        List<Node> nodes = List.of(seed, second, third);
        awaitTrue("three nodes see each other up", () -> nodes.stream().allMatch(n -> nodes.stream().allMatch(m -> n.membership().isAlive(m.hostId))));
        return nodes;
    }

    @Test
    void nodesJoinThroughASeedAndShareTheirState() {
        List<Node> nodes = threeNodes();
        Node third = nodes.get(2);
        for (Node node : nodes) {
            assertThat(node.membership().members()).hasSize(3);
            NodeInfo info = node.membership().member(third.hostId);
            assertThat(info.internode()).isEqualTo(third.address());
            assertThat(info.tokens()).isEqualTo(third.tokens);
            assertThat(info.status()).isEqualTo(NodeStatus.NORMAL);
        }
        assertThat(nodes.get(0).cluster.messaging().request(third.address(), HOST_ID, null, Duration.ofSeconds(5)))
                .as("a verb registered at start is served").succeedsWithin(Duration.ofSeconds(5)).isEqualTo(third.hostId.toString());
        UUID schema = UUID.randomUUID();
        third.membership().schemaVersionChanged(schema);
        awaitTrue("schema version spreads", () -> nodes.stream().allMatch(n -> schema.equals(n.membership().member(third.hostId).schemaVersion())));
    }

    @Test
    void restartedNodeIsSeenDownThenUpWithTheSameHostIdAndTokens() {
        List<Node> nodes = threeNodes();
        Node seed = nodes.get(0);
        Node third = nodes.get(2);
        third.cluster.close();
        awaitTrue("a cleanly stopped node is down at once", () -> !seed.membership().isAlive(third.hostId));
        assertThat(seed.membership().member(third.hostId)).as("still a member").isNotNull();
        third.start();
        assertThat(third.membership().members()).as("knows the cluster at once").hasSize(3);
        awaitTrue("the restarted node is up everywhere", () -> nodes.stream().allMatch(n -> n.membership().isAlive(third.hostId)
                && nodes.stream().allMatch(m -> third.membership().isAlive(m.hostId))));
        assertThat(seed.membership().member(third.hostId).tokens()).isEqualTo(third.tokens);
    }

    @Test
    void crashedPeerIsConvictedByTheFailureDetector() {
        List<Node> nodes = threeNodes();
        Node second = nodes.get(1);
        // no goodbye: stop its gossip thread and sockets without the SHUTDOWN announcement
        second.cluster.messaging().close();
        awaitTrue("phi convicts the silent node", () -> !nodes.get(0).membership().isAlive(second.hostId)
                && !nodes.get(2).membership().isAlive(second.hostId));
    }

    @Test
    void decommissionedNodeDisappearsFromMembers() throws Exception {
        List<Node> nodes = threeNodes();
        Node leaving = nodes.get(2);
        leaving.cluster.decommission(() -> CompletableFuture.completedFuture(null)).get(10, TimeUnit.SECONDS);
        for (Node node : nodes.subList(0, 2)) {
            awaitTrue("left node is gone", () -> node.membership().member(leaving.hostId) == null);
        }
        leaving.cluster.close();
        assertThatThrownBy(leaving::start).isInstanceOf(ClusterStartException.class).hasMessageContaining("decommissioned");
    }

    @Test
    void nodeOfAnotherClusterCannotJoin() {
        Node seed = new Node("127.0.0.1");
        seed.start();
        Node stranger = new Node("127.0.0.2");
        stranger.clusterName = "another";
        stranger.seeds = List.of(seed.address());
        assertThatThrownBy(stranger::start).isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("cannot reach any seed").hasMessageContaining("cluster name 'another' does not match 'it'");
        assertThat(seed.membership().members()).hasSize(1);
    }

    @Test
    void nodeThatCannotReachItsSeedRefusesToStart() throws IOException {
        Node lonely = new Node("127.0.0.2");
        int unused;
        try (ServerSocket socket = new ServerSocket(0, 1, address("127.0.0.1"))) {
            unused = socket.getLocalPort();
        }
        lonely.seeds = List.of(new InetSocketAddress(address("127.0.0.1"), unused));
        long started = System.nanoTime();
        assertThatThrownBy(lonely::start).isInstanceOf(ClusterStartException.class).hasMessageContaining("127.0.0.1:" + unused);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));
    }

    @Test
    void secondNodeOnAnAddressIsRefused() {
        Node seed = new Node("127.0.0.1");
        seed.start();
        Node second = new Node("127.0.0.2");
        second.seeds = List.of(seed.address());
        second.start();
        awaitTrue("joined", () -> seed.membership().isAlive(second.hostId));
        second.cluster.close();
        // a new node (new host id, e.g. after its data directory was replaced) on the old node's address
        Node replacement = new Node("127.0.0.2");
        replacement.port = second.port;
        replacement.seeds = List.of(seed.address());
        assertThatThrownBy(replacement::start).isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("belongs to node host_id=" + second.hostId);
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting until " + what);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

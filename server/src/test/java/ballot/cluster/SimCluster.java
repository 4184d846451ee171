package ballot.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * N gossipers in one {@link SimWorld} over a {@link SimNetwork}. Node i listens on 127.0.0.(i+1):7000; node 0 is
 * the seed. A node keeps its host id, tokens and {@link MemoryPeerStore} across restarts, and its generation grows.
 */
final class SimCluster {
    static final Duration INTERVAL = Duration.ofSeconds(1);

    final SimWorld world;
    final SimNetwork network;
    final List<Node> nodes = new ArrayList<>();
    private final Set<InetSocketAddress> addresses = new HashSet<>();

    /** One node: its durable identity and its current process. */
    final class Node {
        final int index;
        final InetSocketAddress address;
        UUID hostId;
        final List<Long> tokens;
        String clusterName = "sim";
        List<InetSocketAddress> seeds;
        final MemoryPeerStore store = new MemoryPeerStore();
        int generation = 1000;
        Duration leftRetention = Duration.ofDays(3);
        final List<String> events = new ArrayList<>();
        Gossiper gossiper;
        SimScheduler scheduler;
        SimNetwork.Endpoint messaging;
        CompletableFuture<Void> started;
        boolean running;

        Node(int index) {
            this.index = index;
            address = address(index);
            SplittableRandom random = world.random();
            hostId = new UUID(random.nextLong(), random.nextLong());
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i < 4; i++) tokens.add(random.nextLong());
            this.tokens = List.copyOf(tokens);
            seeds = List.of(address(0));
        }

        /** Starts a new process of this node (a higher generation). */
        Node start() {
            if (running) throw new IllegalStateException("node " + index + " is running");
            generation++;
            scheduler = new SimScheduler(world);
            messaging = network.listen(address, scheduler);
            ClusterOptions options = ClusterOptions.builder(clusterName, hostId, generation, tokens, address)
                    .seeds(seeds).gossipInterval(INTERVAL).joinTimeout(Duration.ofSeconds(30)).leftRetention(leftRetention).build();
            gossiper = new Gossiper(options, new UUID(0, 1), messaging, scheduler, store, new SplittableRandom(world.random().nextLong()));
            gossiper.listen(new MembershipListener() {
                @Override public void joined(NodeInfo node) { events.add("joined " + name(node)); }
                @Override public void left(NodeInfo node) { events.add("left " + name(node)); }
                @Override public void up(NodeInfo node) { events.add("up " + name(node)); }
                @Override public void down(NodeInfo node) { events.add("down " + name(node)); }
                @Override public void changed(NodeInfo node) { events.add("changed " + name(node) + " " + node.status()); }
            });
            started = gossiper.start();
            running = true;
            addresses.add(address);
            return this;
        }

        /** kill -9: no goodbye. */
        void crash() {
            scheduler.kill();
            messaging.close();
            running = false;
        }

        /** A clean stop: tells live peers, then the process ends. */
        void stop() {
            CompletableFuture<Void> done = gossiper.shutdown();
            world.runUntil(done::isDone, Duration.ofSeconds(10));
            crash();
        }

        boolean member() {
            return running && started.isDone() && !started.isCompletedExceptionally();
        }

        @Override
        public String toString() {
            return "n" + index;
        }
    }

    SimCluster(long seed, int size) {
        world = new SimWorld(seed);
        network = new SimNetwork(world);
        for (int i = 0; i < size; i++) nodes.add(new Node(i));
    }

    Node node(int index) {
        return nodes.get(index);
    }

    Node add() {
        Node node = new Node(nodes.size());
        nodes.add(node);
        return node;
    }

    /** Starts every node, each after a small random delay. */
    void startAll() {
        for (Node node : nodes) {
            world.at(world.random().nextLong(Duration.ofMillis(500).toNanos()), node::start);
        }
        world.runFor(Duration.ofMillis(501));
    }

    Set<InetSocketAddress> addresses() {
        return Set.copyOf(addresses);
    }

    static InetSocketAddress address(int index) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (index + 1)}), 7000);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    String name(NodeInfo info) {
        for (Node node : nodes) if (node.hostId.equals(info.hostId())) return node.toString();
        return info.hostId().toString();
    }

    /** True when every node in {@code group} is a member that sees exactly {@code group}, all alive, with the same state. */
    boolean converged(List<Node> group) {
        Set<UUID> expected = group.stream().map(n -> n.hostId).collect(Collectors.toSet());
        NodeInfoSet reference = null;
        for (Node node : group) {
            if (!node.member()) return false;
            Set<UUID> seen = node.gossiper.members().stream().map(NodeInfo::hostId).collect(Collectors.toSet());
            if (!seen.equals(expected)) return false;
            for (UUID id : expected) if (!node.gossiper.isAlive(id)) return false;
            NodeInfoSet infos = new NodeInfoSet(Set.copyOf(node.gossiper.members()));
            if (reference == null) reference = infos;
            else if (!reference.equals(infos)) return false;
        }
        return true;
    }

    private record NodeInfoSet(Set<NodeInfo> infos) {}

    boolean converged() {
        return converged(nodes.stream().filter(n -> n.running).toList());
    }

    /** Every running node's view, for failure messages. */
    String describe() {
        StringJoiner out = new StringJoiner("\n", "\n", "");
        for (Node node : nodes) {
            if (!node.running) {
                out.add(node + ": not running");
                continue;
            }
            StringJoiner view = new StringJoiner(", ");
            for (NodeInfo info : node.gossiper.members()) {
                view.add(name(info) + "/" + info.status() + (node.gossiper.isAlive(info.hostId()) ? "/up" : "/down"));
            }
            out.add(node + " (member=" + node.member() + "): " + view);
        }
        return out.toString();
    }
}

package ballot.cluster;

import ballot.cluster.GossipMessages.Ack;
import ballot.cluster.GossipMessages.Ack2;
import ballot.cluster.GossipMessages.Syn;
import ballot.net.LogThrottle;
import ballot.net.Messaging;
import ballot.net.MessagingException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Membership by gossip (docs/membership.md §2–§4): the shell around {@link GossipRules}, {@link FailureDetector} and
 * {@link GossipTargets}. All gossip state is owned by the {@link Scheduler}'s thread; handlers and API calls hop onto
 * it. Readers on other threads see an immutable {@link View}, replaced after every change and before listeners hear
 * of it. Time, randomness, transport and storage are injected, so a simulation drives it deterministically.
 */
final class Gossiper implements Membership {
    private static final Logger log = LoggerFactory.getLogger(Gossiper.class);
    /** A gossip round later than this after the previous one means this node paused; it convicts nobody that round. */
    static final long LOCAL_PAUSE_MAX_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long JOIN_LOG_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(5);
    static final int WINDOW_SIZE = 1000;

    private enum Phase { NEW, SHADOW, RUNNING, STOPPED }

    /** What other threads read. */
    record View(NodeInfo self, Map<UUID, NodeInfo> members, Set<UUID> alive, Map<UUID, Long> loads) {}

    private final ClusterOptions options;
    private final Messaging messaging;
    private final Scheduler scheduler;
    private final PeerStore store;
    private final RandomGenerator random;
    private final UUID self;
    private final InetSocketAddress address;
    private final List<InetSocketAddress> seeds;
    private final long intervalNanos;
    private final Duration requestTimeout;
    private final FailureDetector detector;
    private final LogThrottle throttle;
    private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> started = new CompletableFuture<>();

    // ---- owned by the scheduler thread
    private final Map<UUID, EndpointState> states = new TreeMap<>();
    private final Set<UUID> live = new TreeSet<>();
    private final Set<UUID> echoing = new HashSet<>();
    private Phase phase = Phase.NEW;
    private int version;
    private long lastRoundNanos;
    private long shadowDeadlineNanos;
    private long shadowLoggedNanos;
    private final Map<InetSocketAddress, String> contactErrors = new LinkedHashMap<>();
    private final Set<InetSocketAddress> shadowSeeds = new HashSet<>();
    private EndpointState selfSeen;
    private boolean hadPeers;

    private volatile View view;

    Gossiper(ClusterOptions options, UUID schemaVersion, Messaging messaging, Scheduler scheduler, PeerStore store, RandomGenerator random) {
        this.options = options;
        this.messaging = messaging;
        this.scheduler = scheduler;
        this.store = store;
        this.random = random;
        self = options.hostId();
        address = messaging.localAddress();
        seeds = options.seeds().stream().filter(seed -> !seed.equals(address)).distinct().toList();
        intervalNanos = options.gossipInterval().toNanos();
        requestTimeout = options.gossipInterval().multipliedBy(2);
        detector = new FailureDetector(options.phiConvictThreshold(), WINDOW_SIZE, 2 * intervalNanos, 2 * intervalNanos);
        throttle = new LogThrottle(TimeUnit.MINUTES.toNanos(1), scheduler::nanoTime);
        EndpointState local = new EndpointState(self, options.generation(), 0, Map.of());
        local = local.with(AppState.STATUS, NodeStatus.NORMAL.name(), ++version)
                .with(AppState.TOKENS, NodeStates.tokens(options.tokens()), ++version)
                .with(AppState.INTERNODE, NodeStates.address(address), ++version)
                .with(AppState.NATIVE, NodeStates.address(new InetSocketAddress(options.nativeAddress(), options.nativePort())), ++version)
                .with(AppState.DC, options.dataCenter(), ++version)
                .with(AppState.RACK, options.rack(), ++version)
                .with(AppState.RELEASE_VERSION, options.releaseVersion(), ++version);
        if (schemaVersion != null) local = local.with(AppState.SCHEMA, schemaVersion.toString(), ++version);
        states.put(self, local);
        publish();
        messaging.handle(GossipMessages.SYN, (syn, from) -> onGossipThread(() -> onSyn(syn, from)));
        messaging.handle(GossipMessages.ACK2, (ack2, from) -> onGossipThread(() -> onAck2(ack2)));
        messaging.handle(GossipMessages.ECHO, (ignored, from) -> onGossipThread(this::onEcho));
    }

    /** Loads the persisted peers, does the shadow round through the seeds and starts gossiping; completes once this node is a member, or fails with {@link ClusterStartException}. */
    CompletableFuture<Void> start() {
        scheduler.execute(this::begin);
        return started;
    }

    private void begin() {
        if (phase != Phase.NEW) return;
        if (store.decommissioned()) {
            failStart("this node was decommissioned and cannot rejoin with the same data; to join as a new node, "
                    + "empty its data directory (it gets a new host id and tokens)");
            return;
        }
        for (EndpointState peer : store.load()) {
            if (peer.hostId().equals(self) || NodeStates.left(peer) || NodeStates.info(peer) == null) continue;
            states.put(peer.hostId(), peer);
            hadPeers = true;
        }
        publish();
        if (seeds.isEmpty()) {
            log.info("no seed other than this node: {} the cluster cluster={} known_peers={}", hadPeers ? "restarting" : "starting",
                    options.clusterName(), states.size() - 1);
            run();
            return;
        }
        phase = Phase.SHADOW;
        long now = scheduler.nanoTime();
        shadowDeadlineNanos = now + options.joinTimeout().toNanos();
        shadowLoggedNanos = now;
        log.info("joining cluster={} through seeds={} known_peers={}", options.clusterName(), seeds, states.size() - 1);
        shadowRound();
    }

    // ---------------------------------------------------------------- shadow round (docs/membership.md §4)

    private void shadowRound() {
        if (phase != Phase.SHADOW) return;
        long now = scheduler.nanoTime();
        if (now - shadowDeadlineNanos >= 0) {
            shadowTimedOut();
            return;
        }
        if (now - shadowLoggedNanos >= JOIN_LOG_PERIOD_NANOS) {
            shadowLoggedNanos = now;
            log.warn("cannot reach any seed yet cluster={} seeds={} errors={}; retrying for another {} s", options.clusterName(),
                    seeds, contactErrors, TimeUnit.NANOSECONDS.toSeconds(shadowDeadlineNanos - now));
        }
        for (InetSocketAddress contact : contacts()) {
            messaging.request(contact, GossipMessages.SYN, new Syn(options.clusterName(), List.of()), requestTimeout)
                    .whenComplete((ack, error) -> scheduler.execute(() -> onShadowAck(contact, ack, error)));
        }
        scheduler.schedule(intervalNanos, this::shadowRound);
    }

    /** The seeds, then every persisted peer: a restarted node can join through any node it knew. */
    private Collection<InetSocketAddress> contacts() {
        Set<InetSocketAddress> contacts = new LinkedHashSet<>(seeds);
        for (EndpointState state : states.values()) {
            NodeInfo info = NodeStates.info(state);
            if (info != null && !state.hostId().equals(self) && !info.internode().equals(address)) contacts.add(info.internode());
        }
        return contacts;
    }

    private void onShadowAck(InetSocketAddress contact, Ack ack, Throwable error) {
        if (phase != Phase.SHADOW) return;
        if (error != null) {
            contactErrors.put(contact, describe(error));
            return;
        }
        if (ack.shadow()) {
            contactErrors.put(contact, "starting too (in its shadow round)");
            shadowSeeds.add(contact);
            if (shadowSeeds.containsAll(seeds)) {
                log.info("every seed is starting too; forming the cluster with them seeds={}", seeds);
                run();
            }
            return;
        }
        for (EndpointState state : ack.states()) apply(state);
        String conflict = conflict();
        if (conflict != null) {
            failStart(conflict);
            return;
        }
        log.info("reached the cluster through {}: {} nodes known", contact, states.size());
        run();
    }

    private void shadowTimedOut() {
        if (options.seeds().contains(address) && hadPeers) {
            log.warn("no seed answered within {} s seeds={} errors={}; starting anyway: this node is a seed and knows {} peers from before its restart",
                    options.joinTimeout().toSeconds(), seeds, contactErrors, states.size() - 1);
            run();
            return;
        }
        failStart("cannot reach any seed of cluster '" + options.clusterName() + "' within " + options.joinTimeout().toSeconds()
                + " s: seeds=" + seeds + " errors=" + contactErrors + "; check that a seed is running and reachable, and that "
                + "seeds and cluster_name are the same on every node");
    }

    /** Why this node must not join, judged on what the shadow round brought: its address or host id is taken. */
    private String conflict() {
        for (EndpointState state : states.values()) {
            if (state.hostId().equals(self) || NodeStates.left(state)) continue;
            NodeInfo info = NodeStates.info(state);
            if (info != null && info.internode().equals(address)) {
                return "address " + address + " belongs to node host_id=" + state.hostId() + " status=" + info.status()
                        + "; a node cannot join with the address of another that has not left (was this node's data "
                        + "directory replaced? decommission the old node or restore its data)";
            }
        }
        if (selfSeen != null && selfSeen.generation() >= options.generation()) {
            return "the cluster already knows host id " + self + " with generation " + selfSeen.generation() + " at "
                    + selfSeen.get(AppState.INTERNODE) + ", not older than this node's " + options.generation()
                    + "; is another node running on a copy of this node's data?";
        }
        return null;
    }

    private void failStart(String message) {
        log.error("cannot start membership: {}", message);
        phase = Phase.STOPPED;
        started.completeExceptionally(new ClusterStartException(message));
    }

    private void run() {
        phase = Phase.RUNNING;
        EndpointState local = states.get(self);
        log.info("node is a member cluster={} host_id={} address={} generation={} status={} tokens={}", options.clusterName(),
                self, address, local.generation(), NodeStates.status(local), options.tokens().size());
        publish();
        lastRoundNanos = scheduler.nanoTime();
        started.complete(null);
        gossipRound();
    }

    // ---------------------------------------------------------------- gossip rounds (docs/membership.md §2, §3)

    private void gossipRound() {
        if (phase != Phase.RUNNING) return;
        long now = scheduler.nanoTime();
        boolean paused = now - lastRoundNanos > LOCAL_PAUSE_MAX_NANOS;
        if (paused) log.warn("gossip round is {} ms late (this node paused?); convicting nobody this round", TimeUnit.NANOSECONDS.toMillis(now - lastRoundNanos));
        lastRoundNanos = now;
        states.put(self, states.get(self).withHeartbeat(++version));
        forgetLeft();
        if (!paused) convict(now);
        sendSyn(GossipTargets.choose(liveAddresses(), unreachableAddresses(), seeds, random));
        scheduler.schedule(intervalNanos, this::gossipRound);
    }

    private void sendSyn(List<InetSocketAddress> targets) {
        List<GossipDigest> digests = new ArrayList<>(states.size());
        for (EndpointState state : states.values()) digests.add(state.digest());
        Syn syn = new Syn(options.clusterName(), digests);
        for (InetSocketAddress target : targets) {
            messaging.request(target, GossipMessages.SYN, syn, requestTimeout)
                    .whenComplete((ack, error) -> scheduler.execute(() -> onAck(target, ack, error)));
        }
    }

    private List<InetSocketAddress> liveAddresses() {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (UUID id : live) addresses.add(NodeStates.info(states.get(id)).internode());
        return addresses;
    }

    private List<InetSocketAddress> unreachableAddresses() {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (EndpointState state : states.values()) {
            if (state.hostId().equals(self) || live.contains(state.hostId()) || NodeStates.left(state)) continue;
            NodeInfo info = NodeStates.info(state);
            if (info != null) addresses.add(info.internode());
        }
        return addresses;
    }

    private void convict(long now) {
        for (UUID id : List.copyOf(live)) {
            if (detector.convicts(id, now)) {
                markDown(id, String.format("phi %.1f > %.1f", detector.phi(id, now), detector.threshold()));
            }
        }
    }

    /** Drops LEFT states past their expiry; every node does so at the same wall-clock time, so none learns them again from another. */
    private void forgetLeft() {
        long now = scheduler.currentTimeMillis();
        states.values().removeIf(state -> {
            if (state.hostId().equals(self) || !NodeStates.expired(state, now)) return false;
            log.debug("forgot left node host_id={}", state.hostId());
            return true;
        });
    }

    private void onAck(InetSocketAddress target, Ack ack, Throwable error) {
        if (error != null) {
            log.debug("gossip to {} failed: {}", target, describe(error));
            return;
        }
        if (phase != Phase.RUNNING || ack.shadow()) return;
        for (EndpointState state : ack.states()) apply(state);
        if (!ack.requests().isEmpty()) {
            List<EndpointState> answer = GossipRules.answer(states, ack.requests());
            if (!answer.isEmpty()) {
                messaging.request(target, GossipMessages.ACK2, new Ack2(answer), requestTimeout)
                        .whenComplete((ignored, e) -> {
                            if (e != null) log.debug("gossip ACK2 to {} failed: {}", target, describe(e));
                        });
            }
        }
    }

    private Ack onSyn(Syn syn, InetSocketAddress from) {
        if (!syn.clusterName().equals(options.clusterName())) {
            if (throttle.allow("cluster " + from)) {
                log.warn("refused gossip from {}: it is in cluster '{}', this node in '{}'", from, syn.clusterName(), options.clusterName());
            }
            throw new IllegalArgumentException("cluster name mismatch: " + from + " is in cluster '" + syn.clusterName() + "', "
                    + address + " in '" + options.clusterName() + "'");
        }
        if (phase == Phase.NEW || phase == Phase.SHADOW) return new Ack(true, List.of(), List.of());
        if (phase == Phase.STOPPED) throw new IllegalStateException(address + " is not gossiping (stopped or left)");
        GossipRules.Examination examination = GossipRules.examine(states, syn.digests());
        return new Ack(false, examination.requests(), examination.states());
    }

    private Void onAck2(Ack2 ack2) {
        if (phase == Phase.RUNNING) {
            for (EndpointState state : ack2.states()) apply(state);
        }
        return null;
    }

    private GossipDigest onEcho() {
        if (phase != Phase.RUNNING) throw new IllegalStateException(address + " is not gossiping");
        return states.get(self).digest();
    }

    // ---------------------------------------------------------------- applying state (docs/membership.md §2)

    private void apply(EndpointState remote) {
        UUID id = remote.hostId();
        long now = scheduler.nanoTime();
        if (id.equals(self)) {
            if (selfSeen == null || remote.generation() > selfSeen.generation()) selfSeen = remote;
            if (remote.generation() > options.generation() && throttle.allow("self")) {
                log.error("another node claims this node's host id {} with a newer generation {} at {}: two nodes run on copies of the same data?",
                        self, remote.generation(), remote.get(AppState.INTERNODE));
            }
            return;
        }
        EndpointState local = states.get(id);
        if (NodeStates.expired(remote, scheduler.currentTimeMillis())) return; // forgotten for good
        GossipRules.Merge merge = GossipRules.merge(local, remote);
        EndpointState merged = merge.merged();
        switch (merge.outcome()) {
            case UNCHANGED -> { }
            case REFUSED -> {
                if (throttle.allow("generation " + id)) {
                    log.warn("ignoring state of host_id={} with generation {}: more than a year ahead of {}", id, remote.generation(), local.generation());
                }
            }
            case NEW -> {
                states.put(id, merged);
                if (NodeStates.left(merged)) return; // a node we never knew has left: only relay it
                detector.report(id, now);
                store.save(merged);
                NodeInfo info = NodeStates.info(merged);
                log.info("node joined host_id={} address={} status={} dc={} rack={}", id, info.internode(), info.status(), info.dataCenter(), info.rack());
                publish();
                notify(listener -> listener.joined(info));
                maybeEcho(id);
            }
            case RESTARTED -> {
                boolean wasLeft = NodeStates.left(local);
                NodeInfo before = NodeStates.info(local);
                states.put(id, merged);
                detector.remove(id);
                detector.report(id, now);
                echoing.remove(id);
                log.info("node restarted host_id={} address={} generation={}->{}", id, merged.get(AppState.INTERNODE), local.generation(), merged.generation());
                if (live.remove(id)) {
                    publish();
                    notify(listener -> listener.down(before));
                }
                if (NodeStates.left(merged)) {
                    if (!wasLeft) left(id, merged);
                    return;
                }
                store.save(merged);
                NodeInfo after = NodeStates.info(merged);
                publish();
                if (wasLeft) notify(listener -> listener.joined(after));
                else if (!after.equals(before)) notify(listener -> listener.changed(after));
                maybeEcho(id);
            }
            case UPDATED -> {
                boolean wasLeft = NodeStates.left(local);
                NodeInfo before = NodeStates.info(local);
                states.put(id, merged);
                if (wasLeft) return; // nothing comes back from LEFT within a generation
                if (merge.heartbeatAdvanced()) detector.report(id, now);
                if (NodeStates.left(merged)) {
                    left(id, merged);
                    return;
                }
                Set<Integer> durable = new HashSet<>(merge.changedKeys());
                durable.remove(AppState.LOAD.key);
                if (!durable.isEmpty()) store.save(merged);
                NodeInfo after = NodeStates.info(merged);
                if (!after.equals(before)) {
                    if (after.status() != before.status()) log.info("node status host_id={} address={} {}->{}", id, after.internode(), before.status(), after.status());
                    publish();
                    notify(listener -> listener.changed(after));
                } else if (merge.changedKeys().contains(AppState.LOAD.key)) {
                    publish();
                }
                if (NodeStates.shutdown(merged)) {
                    if (live.contains(id)) markDown(id, "it shut down");
                } else if (!live.contains(id) && merge.heartbeatAdvanced()) {
                    maybeEcho(id);
                }
            }
        }
    }

    private void left(UUID id, EndpointState state) {
        live.remove(id);
        echoing.remove(id);
        detector.remove(id);
        store.delete(id);
        NodeInfo info = NodeStates.info(state);
        log.info("node left host_id={} address={}", id, info == null ? state.get(AppState.INTERNODE) : info.internode());
        publish();
        if (info != null) notify(listener -> listener.left(info));
    }

    /** A node seems alive again (new heartbeat): mark it up only if it answers us directly. */
    private void maybeEcho(UUID id) {
        EndpointState state = states.get(id);
        if (phase != Phase.RUNNING || state == null || NodeStates.left(state) || NodeStates.shutdown(state) || !echoing.add(id)) return;
        InetSocketAddress target = NodeStates.info(state).internode();
        messaging.request(target, GossipMessages.ECHO, null, requestTimeout)
                .whenComplete((digest, error) -> scheduler.execute(() -> onEchoReply(id, target, digest, error)));
    }

    private void onEchoReply(UUID id, InetSocketAddress target, GossipDigest digest, Throwable error) {
        if (!echoing.remove(id) || phase != Phase.RUNNING) return;
        if (error != null) {
            log.debug("echo to host_id={} at {} failed: {}", id, target, describe(error));
            return;
        }
        EndpointState state = states.get(id);
        if (state == null || NodeStates.left(state) || NodeStates.shutdown(state) || live.contains(id)) return;
        if (!digest.hostId().equals(id)) {
            if (throttle.allow("echo " + target)) log.warn("echo to {} expected host_id={} but host_id={} answered", target, id, digest.hostId());
            return;
        }
        if (digest.generation() < state.generation()) return;
        live.add(id);
        NodeInfo info = NodeStates.info(state);
        log.info("node up host_id={} address={} status={}", id, info.internode(), info.status());
        publish();
        notify(listener -> listener.up(info));
    }

    private void markDown(UUID id, String why) {
        if (!live.remove(id)) return;
        NodeInfo info = NodeStates.info(states.get(id));
        log.info("node down host_id={} address={}: {}", id, info.internode(), why);
        publish();
        notify(listener -> listener.down(info));
    }

    // ---------------------------------------------------------------- this node's state

    private void setLocal(AppState key, String value) {
        states.put(self, states.get(self).with(key, value, ++version));
        publish();
    }

    /**
     * Also gossips to every live node at once instead of at the next round: drivers wait for schema agreement after
     * each DDL statement, and a round is a second away.
     */
    @Override
    public void schemaVersionChanged(UUID schemaVersion) {
        scheduler.execute(() -> {
            setLocal(AppState.SCHEMA, schemaVersion.toString());
            if (phase == Phase.RUNNING) sendSyn(liveAddresses());
        });
    }

    @Override
    public void loadChanged(long bytes) {
        scheduler.execute(() -> setLocal(AppState.LOAD, Long.toString(bytes)));
    }

    /**
     * Decommission (docs/membership.md §4): LEAVING, the caller's hand-over, then LEFT, pushed to every live peer; then
     * gossip stops. Fails with {@link IllegalStateException} unless this node is NORMAL and another NORMAL node is alive.
     */
    CompletableFuture<Void> decommission(Supplier<CompletableFuture<Void>> handOver) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        scheduler.execute(() -> {
            NodeStatus status = NodeStates.status(states.get(self));
            if (phase != Phase.RUNNING || status != NodeStatus.NORMAL) {
                result.completeExceptionally(new IllegalStateException("cannot decommission: this node is " + (phase != Phase.RUNNING ? "not running" : status)));
                return;
            }
            boolean otherNormal = live.stream().anyMatch(id -> NodeStates.status(states.get(id)) == NodeStatus.NORMAL);
            if (!otherNormal) {
                result.completeExceptionally(new IllegalStateException("cannot decommission: no other live NORMAL node to take over this node's data"));
                return;
            }
            log.info("decommissioning host_id={}: LEAVING", self);
            setLocal(AppState.STATUS, NodeStatus.LEAVING.name());
            NodeInfo leaving = view.self();
            notify(listener -> listener.changed(leaving));
            announce().thenCompose(ignored -> {
                        CompletableFuture<Void> handedOver = handOver.get();
                        return handedOver == null ? CompletableFuture.<Void>completedFuture(null) : handedOver;
                    })
                    .whenComplete((ignored, error) -> scheduler.execute(() -> {
                        if (error != null) {
                            log.warn("decommission failed; back to NORMAL: {}", describe(error));
                            setLocal(AppState.STATUS, NodeStatus.NORMAL.name());
                            result.completeExceptionally(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
                            return;
                        }
                        setLocal(AppState.LEFT_EXPIRES, Long.toString(scheduler.currentTimeMillis() + options.leftRetention().toMillis()));
                        setLocal(AppState.STATUS, NodeStatus.LEFT.name());
                        store.markDecommissioned();
                        log.info("decommissioned host_id={}: LEFT; telling the other nodes", self);
                        announce().whenComplete((x, e) -> scheduler.execute(() -> {
                            phase = Phase.STOPPED;
                            publish();
                            result.complete(null);
                        }));
                    }));
        });
        return result;
    }

    /** Clean stop: SHUTDOWN pushed to every known peer, which mark this node down at once; then gossip stops. */
    CompletableFuture<Void> shutdown() {
        CompletableFuture<Void> result = new CompletableFuture<>();
        scheduler.execute(() -> {
            if (phase != Phase.RUNNING) {
                phase = Phase.STOPPED;
                if (!started.isDone()) started.completeExceptionally(new ClusterStartException("membership was closed while starting"));
                result.complete(null);
                return;
            }
            setLocal(AppState.SHUTDOWN, "true");
            phase = Phase.STOPPED;
            announce().whenComplete((x, e) -> result.complete(null));
        });
        return result;
    }

    /**
     * Pushes this node's whole state to every known peer that has not left, live or not (a peer may be up without our
     * having confirmed it yet); completes when all answered or failed, bounded by the request timeout.
     */
    private CompletableFuture<Void> announce() {
        Ack2 push = new Ack2(List.of(states.get(self)));
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        List<InetSocketAddress> peers = new ArrayList<>(liveAddresses());
        peers.addAll(unreachableAddresses());
        for (InetSocketAddress peer : peers) {
            answers.add(messaging.request(peer, GossipMessages.ACK2, push, requestTimeout).exceptionally(e -> null));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new));
    }

    // ---------------------------------------------------------------- the view

    private void publish() {
        Map<UUID, NodeInfo> members = new LinkedHashMap<>();
        Map<UUID, Long> loads = new HashMap<>();
        for (EndpointState state : states.values()) {
            NodeInfo info = NodeStates.info(state);
            if (info == null || info.status() == NodeStatus.LEFT) continue;
            members.put(state.hostId(), info);
            long load = NodeStates.load(state);
            if (load >= 0) loads.put(state.hostId(), load);
        }
        Set<UUID> alive = new HashSet<>(live);
        alive.add(self);
        view = new View(NodeStates.info(states.get(self)), Map.copyOf(members), Set.copyOf(alive), Map.copyOf(loads));
    }

    private void notify(Consumer<MembershipListener> event) {
        for (MembershipListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.error("membership listener {} failed", listener, e);
            }
        }
    }

    private <T> CompletableFuture<T> onGossipThread(Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        scheduler.execute(() -> {
            try {
                result.complete(task.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof MessagingException m ? m.reason() + ": " + m.getMessage() : String.valueOf(cause);
    }

    /** For {@link ballot.net.PeerValidator}: refuses a host id held by a different live address, or an address held by a different live host id. Any thread. */
    String refusal(UUID hostId, InetSocketAddress peer) {
        View current = view;
        NodeInfo byId = current.members().get(hostId);
        if (byId != null && !byId.internode().equals(peer) && current.alive().contains(hostId)) {
            return "host id " + hostId + " belongs to live node " + byId.internode();
        }
        for (NodeInfo member : current.members().values()) {
            if (member.internode().equals(peer) && !member.hostId().equals(hostId) && current.alive().contains(member.hostId())) {
                return "address " + peer + " belongs to live node host_id=" + member.hostId();
            }
        }
        return null;
    }

    @Override
    public NodeInfo self() {
        return view.self();
    }

    @Override
    public Collection<NodeInfo> members() {
        return view.members().values();
    }

    @Override
    public NodeInfo member(UUID hostId) {
        return view.members().get(hostId);
    }

    @Override
    public boolean isAlive(UUID hostId) {
        View current = view;
        return current.alive().contains(hostId) && current.members().containsKey(hostId);
    }

    @Override
    public void listen(MembershipListener listener) {
        listeners.add(listener);
    }

    @Override
    public long load(UUID hostId) {
        return view.loads().getOrDefault(hostId, -1L);
    }

    /** The host ids this node gossips about, LEFT ones included. Membership thread only (tests). */
    Set<UUID> gossipedHostIds() {
        return Set.copyOf(states.keySet());
    }

    /** Phi of every live peer, for diagnostics and tests; runs on the membership thread. */
    CompletableFuture<Map<UUID, Double>> phis() {
        return onGossipThread(() -> {
            Map<UUID, Double> phis = new TreeMap<>();
            long now = scheduler.nanoTime();
            for (UUID id : live) phis.put(id, detector.phi(id, now));
            return phis;
        });
    }
}

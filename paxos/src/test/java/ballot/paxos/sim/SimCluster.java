package ballot.paxos.sim;

import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.Electorate;
import ballot.paxos.Mark;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorShell;
import ballot.paxos.coordinator.CasCoordinator;
import ballot.paxos.coordinator.CasResult;
import ballot.paxos.coordinator.CommitLevel;
import ballot.paxos.coordinator.WorkSlot;
import ballot.paxos.message.Message;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.sim.LinearizabilityChecker.Kind;
import ballot.paxos.sim.LinearizabilityChecker.Op;
import ballot.paxos.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A deterministic simulated cluster (docs/paxos.md §10): nodes with an {@link AcceptorShell} and a
 * {@link CasCoordinator} over {@link SimStore}s whose persists complete late and out of order (§4.12), a network that
 * drops, duplicates, delays (so reorders) and partitions, clocks with drift and jumps, crashes that keep only what
 * reached the disk (a persist in flight lands or not; a crash can also come between a persist and its reply),
 * concurrent clients, and plain writes. All randomness comes from the seed, so one seed replays one run exactly.
 */
final class SimCluster {
    private static final long MS = 1_000_000L;
    private static final long TICK_NANOS = 2 * MS;
    private static final long SIM_TIME_MAX = 600_000 * MS;
    /** A persist lands this long after it was submitted (group commit under load); one in 20 is slower still. */
    private static final long PERSIST_NANOS_MAX = 1_500_000, SLOW_PERSIST_NANOS_MAX = 10 * MS;

    record Event(long at, long seq, Runnable action) {}

    /** A plain (non-Paxos) write of cell p = k at timestamp k, sent by a node to every replica. */
    record PlainWrite(PaxosKey key, long id, long k) {}

    record PlainAck(long id) {}

    /**
     * @param persistsLandedInCrash, persistsLostInCrash persists in flight at a crash that reached the disk, or did not
     * @param unsyncedLostInPowerLoss writes landed without a sync that a power loss undid
     */
    record Stats(int ops, Map<CasResult.Outcome, Integer> outcomes, long appliedRoundTrips, int applied, int fastPath,
            long events, int persistsLandedInCrash, int persistsLostInCrash, int unsyncedLostInPowerLoss) {
        double roundTripsPerApplied() {
            return applied == 0 ? 0 : (double) appliedRoundTrips / applied;
        }
    }

    /** @param crossDcMessages messages sent from one data center to another, by type */
    record RunResult(long seed, SimOptions options, List<String> violations, Map<Mark, Integer> marks, Stats stats,
            int historyOps, Map<String, Integer> crossDcMessages) {
        @Override
        public String toString() {
            return "SIM seed=" + seed + " " + options + " -> ops=" + stats.ops() + " " + stats.outcomes()
                    + String.format(" rt/applied=%.2f fast=%d", stats.roundTripsPerApplied(), stats.fastPath())
                    + " events=" + stats.events() + " violations=" + violations.size();
        }
    }

    private record PlainRecord(long k, long invokeNanos, long completeNanos) {}

    private record Observation(PaxosKey key, long invokeNanos, Bytes query, Bytes row) {}

    final long seed;
    final SimOptions options;
    private final SplittableRandom random;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
            : Long.compare(a.seq, b.seq));
    private long eventSeq;
    private long eventsRun;
    private long now;
    private final List<Node> nodes = new ArrayList<>();
    /** The nodes of each data center; every node is a replica of every key. */
    private final List<List<NodeId>> dataCenters = new ArrayList<>();
    /** Every replica votes: SERIAL. */
    private final Electorate everyone;
    /** With {@link SimOptions#join}: the node that joins, and every key's electorate once it has. */
    private final Node spare;
    private final Electorate joined;
    private boolean joinHappened;
    /** Per data center: its replicas vote, the others learn: LOCAL_SERIAL there. */
    private final List<Electorate> local = new ArrayList<>();
    private final List<PaxosKey> keys = new ArrayList<>();
    private final Map<String, Integer> crossDcMessages = new TreeMap<>();
    private final Set<Long> cutLinks = new HashSet<>();
    private final Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
    private final Map<PaxosKey, List<Op>> history = new HashMap<>();
    private final Map<PaxosKey, Map<Long, Op>> writers = new HashMap<>();
    private final List<Observation> observations = new ArrayList<>();
    private final Map<PaxosKey, List<PlainRecord>> plainLog = new HashMap<>();
    private final Map<Long, PlainInFlight> plainInFlight = new HashMap<>();
    private final Map<CasResult.Outcome, Integer> outcomes = new EnumMap<>(CasResult.Outcome.class);
    private final List<Client> clients = new ArrayList<>();
    private long valueCounter;
    private long plainCounter;
    private long appliedRoundTrips;
    private int appliedCount;
    private int fastPathCount;
    private int opsIssued;
    private final List<String> acceptorFailures = new ArrayList<>();
    private int persistsLandedInCrash;
    private int persistsLostInCrash;
    private int unsyncedLostInPowerLoss;

    private SimCluster(long seed, SimOptions options) {
        this.seed = seed;
        this.options = options;
        this.random = new SplittableRandom(seed);
        List<NodeId> ids = new ArrayList<>();
        for (int dc = 0; dc < options.dataCenters().size(); dc++) {
            List<NodeId> members = new ArrayList<>();
            for (int i = 0; i < options.dataCenters().get(dc); i++) {
                NodeId id = NodeId.of(ids.size() + 1);
                ids.add(id);
                members.add(id);
                nodes.add(new Node(id, dc, random.split()));
            }
            dataCenters.add(members);
        }
        this.everyone = new Electorate(ids);
        if (options.join()) { // a spare that replaces one replica of every key when it joins (docs/paxos.md §4.14)
            spare = new Node(NodeId.of(ids.size() + 1), 0, random.split());
            nodes.add(spare);
            List<NodeId> after = new ArrayList<>(ids);
            after.set(random.nextInt(after.size()), spare.id);
            joined = new Electorate(after);
        } else {
            spare = null;
            joined = null;
        }
        for (List<NodeId> members : dataCenters) {
            List<NodeId> learners = new ArrayList<>(ids);
            learners.removeAll(members);
            local.add(new Electorate(members, learners));
        }
        for (int k = 0; k < options.keys(); k++) {
            PaxosKey key = PaxosKey.of("k" + k);
            keys.add(key);
            history.put(key, new ArrayList<>());
            writers.put(key, new HashMap<>());
            plainLog.put(key, new ArrayList<>());
        }
    }

    static RunResult run(long seed, SimOptions options) {
        return new SimCluster(seed, options).run();
    }

    private RunResult run() {
        for (Node n : nodes) n.start();
        for (int c = 0; c < options.clients(); c++) {
            Client client = switch (options.serial()) {
                case SERIAL -> new Client(c, nodes.get(c % nodes.size()), nodes, keys, options.opsPerClient());
                case LOCAL_SERIAL -> {
                    int dc = c % dataCenters.size();
                    yield new Client(c, inDc(dc).get(c / dataCenters.size() % dataCenters.get(dc).size()), inDc(dc),
                            keysOf(dc), options.opsPerClient());
                }
                case MIXED -> new Client(c, inDc(0).get(c % dataCenters.get(0).size()), inDc(0), keys, options.opsPerClient());
            };
            clients.add(client);
            schedule(random.nextLong(5 * MS), () -> next(client));
        }
        if (options.crashes()) schedule(100 * MS + random.nextLong(300 * MS), this::crashSomeNode);
        if (options.partitions()) schedule(100 * MS + random.nextLong(400 * MS), this::partitionSomeNode);
        switch (options.dcPartitions()) {
            case NONE -> { }
            case INTERMITTENT -> schedule(50 * MS + random.nextLong(300 * MS), this::partitionDataCenters);
            case PERMANENT -> cutLinks.addAll(crossDcLinks());
        }
        if (options.clockJumps()) schedule(random.nextLong(300 * MS), this::jumpSomeClock);
        if (options.plainWrites()) schedule(random.nextLong(30 * MS), this::plainWrite);
        if (options.join()) schedule(100 * MS + random.nextLong(300 * MS), this::join);

        while (!events.isEmpty() && !allClientsDone()) {
            Event e = events.poll();
            if (e.at > SIM_TIME_MAX) throw new IllegalStateException("simulation did not finish; seed " + seed);
            now = e.at;
            eventsRun++;
            e.action.run();
        }
        List<String> violations = check();
        if (Boolean.getBoolean("ballot.sim.debug")) {
            plainLog.forEach((k, l) -> System.out.println("plain " + k + " " + l.size() + " last " + (l.isEmpty() ? null : l.get(l.size() - 1))));
            for (Observation o : observations) System.out.println("obs " + o.invokeNanos() + " p=" + SimRow.value(o.row(), 'p') + " need " + completedBefore(o.key(), o.invokeNanos()));
        }
        Stats stats = new Stats(opsIssued, outcomes, appliedRoundTrips, appliedCount, fastPathCount, eventsRun,
                persistsLandedInCrash, persistsLostInCrash, unsyncedLostInPowerLoss);
        int ops = history.values().stream().mapToInt(List::size).sum();
        return new RunResult(seed, options, violations, marks, stats, ops, crossDcMessages);
    }

    private void schedule(long delay, Runnable action) {
        events.add(new Event(now + delay, eventSeq++, action));
    }

    private boolean allClientsDone() {
        for (Client c : clients) if (!c.done) return false;
        return true;
    }

    private Node node(NodeId id) {
        return nodes.get(id.id() - 1);
    }

    private List<Node> inDc(int dc) {
        List<Node> out = new ArrayList<>();
        for (NodeId id : dataCenters.get(dc)) out.add(node(id));
        return out;
    }

    /** At LOCAL_SERIAL each key is used in one data center only: mixing data centers on a key is not linearizable. */
    private List<PaxosKey> keysOf(int dc) {
        List<PaxosKey> out = new ArrayList<>();
        for (int k = dc; k < keys.size(); k += dataCenters.size()) out.add(keys.get(k));
        return out;
    }

    /** The electorates clients may use on {@code key}: a plain write completes once it has a quorum of each. */
    private List<Electorate> electoratesOf(PaxosKey key) {
        return switch (options.serial()) {
            case SERIAL -> joinHappened ? List.of(everyone, joined) : List.of(everyone);
            case LOCAL_SERIAL -> List.of(local.get(keys.indexOf(key) % dataCenters.size()));
            case MIXED -> List.of(everyone, local.get(0));
        };
    }

    // ------------------------------------------------------------------ nodes

    private final class Node {
        final NodeId id;
        final int dc;
        final SplittableRandom nodeRandom;
        final SimClock clock;
        final SimStore store = new SimStore(options.bug(), write -> schedule(persistNanos(), () -> landed(write)));
        final Transport transport = new Transport() {
            @Override
            public void send(NodeId to, Message message) {
                if (up) network(id, to, message);
            }

            @Override
            public boolean isAlive(NodeId node) {
                return node(node).up;
            }
        };
        boolean up = true;
        /** Whether this node's coordinator uses the electorate that includes the spare. */
        boolean sawJoin;
        int incarnation;
        CasCoordinator coordinator;
        AcceptorShell acceptor;

        Node(NodeId id, int dc, SplittableRandom nodeRandom) {
            this.id = id;
            this.dc = dc;
            this.nodeRandom = nodeRandom;
            this.clock = new SimClock(() -> now, (nodeRandom.nextDouble() - 0.5) * 400,
                    (nodeRandom.nextLong(100_000) - 50_000));
        }

        void start() {
            SplittableRandom coordinatorRandom = nodeRandom.split();
            coordinator = CasCoordinator.builder()
                    .self(id, incarnation)
                    .transport(transport)
                    .clock(clock)
                    .random(coordinatorRandom::nextLong)
                    .readModel(SimRow.MODEL)
                    .observer(mark -> marks.merge(mark, 1, Integer::sum))
                    .batchSizeMax(options.batchSizeMax())
                    .retransmit(Duration.ofMillis(30))
                    .backoff(Duration.ofMillis(1), Duration.ofMillis(40))
                    .recoveryGrace(Duration.ofMillis(15))
                    .commitRetry(Duration.ofMillis(500))
                    .sessionIdle(Duration.ofMillis(800))
                    .fastPath(options.fastPath())
                    .build();
            // Small caches, so registers are reloaded and deferred promises get written out on their own too.
            // The spare joined after every key had history: it abstains from their votes (§4.14), unless planted not to.
            boolean abstainer = this == spare && options.bug() != SimStore.Bug.JOINER_VOTES;
            acceptor = new AcceptorShell(id, store, home(incarnation), mark -> marks.merge(mark, 1, Integer::sum),
                    key -> abstainer, 1 + nodeRandom.nextInt(4), 1 + nodeRandom.nextInt(3));
            int inc = incarnation;
            schedule(nodeRandom.nextLong(TICK_NANOS) + 1, () -> tick(inc));
            if (options.purgeGraceNanos() > 0) schedule(nodeRandom.nextLong(options.purgeGraceNanos()) + 1, () -> purge(inc));
        }

        /**
         * A purge pass (docs/paxos.md §4.13): the floor is the grace period before this node's wall clock, made durable
         * first; then every partition with registers is offered to the acceptor.
         */
        void purge(int inc) {
            if (!up || incarnation != inc) return;
            long floor = clock.wallMicros() - options.purgeGraceNanos() / 1000;
            if (floor > store.floorMicros()) {
                store.raiseFloor(floor);
                for (PaxosKey key : store.partitionsWithRegisters()) acceptor.purge(key, floor);
            }
            schedule(options.purgeGraceNanos() / 3, () -> purge(inc));
        }

        void tick(int inc) {
            if (!up || incarnation != inc) return;
            coordinator.tick();
            schedule(TICK_NANOS, () -> tick(inc));
        }

        /** Runs the acceptor's tasks as events of this incarnation: a crash ends them, as it ends the process. */
        private java.util.concurrent.Executor home(int inc) {
            return task -> schedule(1_000, () -> {
                if (up && incarnation == inc) task.run();
            });
        }

        /** A persist reaches the disk; then, unless the node crashes right there (before replying), it is answered. */
        private void landed(SimStore.PendingWrite write) {
            if (!store.land(write)) return; // a crash resolved it first
            if (options.crashAfterPersist() > 0 && random.nextDouble() < options.crashAfterPersist()) {
                crash(this, 20 * MS + random.nextLong(200 * MS));
                return;
            }
            write.done().accept(null);
        }

        void deliver(NodeId from, Object message) {
            if (!up) return;
            if (message instanceof Request request) {
                acceptor.receive(request, new AcceptorShell.Answer() {
                    @Override
                    public void reply(Reply reply) {
                        if (reply != null) transport.send(from, reply);
                    }

                    @Override
                    public void fail(RuntimeException failure) { // an acceptor invariant broke (the store never fails here)
                        acceptorFailures.add("acceptor step failed on " + id + " at " + now + ": " + failure);
                    }
                });
            } else if (message instanceof Reply reply) {
                coordinator.receive(from, reply);
            } else if (message instanceof PlainWrite w) {
                Map<Character, SimRow.Cell> cells = new TreeMap<>();
                cells.put('p', new SimRow.Cell(w.k(), false, 0));
                store.plainWrite(w.key(), cells, w.k());
                network(id, from, new PlainAck(w.id()));
            } else if (message instanceof PlainAck ack) {
                plainAcked(ack.id(), from);
            }
        }
    }

    private void network(NodeId from, NodeId to, Object message) {
        if (options.bug() == SimStore.Bug.CLAIMED_DECISIONS && message instanceof Propose p && p.decides() == Propose.Decides.NO)
            message = new Propose(p.key(), p.proposal(), p.promiseNext(), p.pruneUpTo(), Propose.Decides.ON_ACCEPT);
        if (options.bug() == SimStore.Bug.OWN_VOTE_NOT_AWAITED && from.equals(to) && message instanceof Propose p
                && p.decides() == Propose.Decides.NO) { // the other voters get it before our replica's vote is durable
            for (Electorate e : electoratesOf(p.key()))
                for (NodeId voter : e.voters()) if (!voter.equals(from)) network(from, voter, p);
        }
        Object delivered = message;
        Node target = node(to);
        if (from.equals(to)) { // local: no network, never lost
            schedule(20_000, () -> target.deliver(from, delivered));
            return;
        }
        if (node(from).dc != target.dc) crossDcMessages.merge(delivered.getClass().getSimpleName(), 1, Integer::sum);
        if (cutLinks.contains(link(from, to)) || random.nextDouble() < options.loss()) return;
        int copies = random.nextDouble() < options.duplicate() ? 2 : 1;
        for (int i = 0; i < copies; i++)
            schedule(200_000 + random.nextLong(options.delayMaxNanos()), () -> target.deliver(from, delivered));
    }

    private static long link(NodeId a, NodeId b) {
        return ((long) a.id() << 32) | b.id();
    }

    // ------------------------------------------------------------------ faults

    private int nodesDown(int dc) {
        int down = 0;
        for (Node n : inDc(dc)) if (!n.up) down++;
        return down;
    }

    private long persistNanos() {
        return random.nextInt(20) == 0 ? random.nextLong(SLOW_PERSIST_NANOS_MAX) + 1 : 50_000 + random.nextLong(PERSIST_NANOS_MAX);
    }

    private void crash(Node n, long downNanos) {
        if (!n.up) return;
        n.up = false;
        if (options.powerLoss()) {
            unsyncedLostInPowerLoss += n.store.powerLoss();
        } else {
            n.store.crash(() -> {
                boolean landed = random.nextBoolean();
                if (landed) persistsLandedInCrash++;
                else persistsLostInCrash++;
                return landed;
            });
        }
        n.coordinator = null; // volatile state is lost; its clients will see no answer
        schedule(downNanos, () -> {
            n.up = true;
            n.incarnation++;
            n.start();
        });
    }

    private void crashSomeNode() {
        if (allClientsDone()) return;
        Node n = nodes.get(random.nextInt(nodes.size()));
        if (n.up && nodesDown(n.dc) < (dataCenters.get(n.dc).size() - 1) / 2) crash(n, 50 * MS + random.nextLong(250 * MS));
        schedule(150 * MS + random.nextLong(450 * MS), this::crashSomeNode);
    }

    private void partitionSomeNode() {
        if (allClientsDone()) return;
        NodeId isolated = nodes.get(random.nextInt(nodes.size())).id;
        List<Long> cut = new ArrayList<>();
        for (Node other : nodes) {
            if (other.id.equals(isolated)) continue;
            cut.add(link(isolated, other.id));
            cut.add(link(other.id, isolated));
        }
        cutLinks.addAll(cut);
        schedule(50 * MS + random.nextLong(250 * MS), () -> cut.forEach(cutLinks::remove));
        schedule(300 * MS + random.nextLong(500 * MS), this::partitionSomeNode);
    }

    private List<Long> crossDcLinks() {
        List<Long> cut = new ArrayList<>();
        for (Node a : nodes) for (Node b : nodes) if (a.dc != b.dc) cut.add(link(a.id, b.id));
        return cut;
    }

    private void partitionDataCenters() {
        if (allClientsDone()) return;
        List<Long> cut = crossDcLinks();
        cutLinks.addAll(cut);
        schedule(50 * MS + random.nextLong(300 * MS), () -> cut.forEach(cutLinks::remove));
        schedule(400 * MS + random.nextLong(600 * MS), this::partitionDataCenters);
    }

    private void jumpSomeClock() {
        if (allClientsDone()) return;
        nodes.get(random.nextInt(nodes.size())).clock.jump(random.nextLong(400_000) - 200_000);
        schedule(100 * MS + random.nextLong(400 * MS), this::jumpSomeClock);
    }

    // ------------------------------------------------------------------ plain writes

    private final class PlainInFlight {
        final PaxosKey key;
        final long k;
        final long invokeNanos;
        final List<NodeId> acks = new ArrayList<>();

        PlainInFlight(PaxosKey key, long k, long invokeNanos) {
            this.key = key;
            this.k = k;
            this.invokeNanos = invokeNanos;
        }
    }

    private void plainWrite() {
        if (allClientsDone()) return;
        PaxosKey key = keys.get(random.nextInt(keys.size()));
        Node sender = nodes.get(random.nextInt(nodes.size()));
        if (sender.up) {
            long id = ++plainCounter;
            long k = id; // timestamps and values grow together: the latest completed write is the largest k
            plainInFlight.put(id, new PlainInFlight(key, k, now));
            java.util.Set<NodeId> replicas = new java.util.LinkedHashSet<>(everyone.voters());
            if (joinHappened) replicas.addAll(joined.voters());
            for (NodeId replica : replicas) network(sender.id, replica, new PlainWrite(key, id, k));
        }
        schedule(10 * MS + random.nextLong(60 * MS), this::plainWrite);
    }

    /** The spare joins: coordinators learn of it over the next 40 ms, each at its own moment, as gossip spreads. */
    private void join() {
        joinHappened = true;
        for (Node n : nodes) schedule(random.nextLong(40 * MS), () -> n.sawJoin = true);
    }

    private void plainAcked(long id, NodeId at) {
        PlainInFlight w = plainInFlight.get(id);
        if (w == null) return;
        if (w.acks.contains(at)) return;
        w.acks.add(at);
        if (electoratesOf(w.key).stream().allMatch(e -> e.voters().stream().filter(w.acks::contains).count() >= e.quorum())) { // done for its client
            plainInFlight.remove(id);
            plainLog.get(w.key).add(new PlainRecord(w.k, w.invokeNanos, now));
        }
    }

    // ------------------------------------------------------------------ clients

    private final class Client {
        final int id;
        final Node home;
        /** The nodes it connects to, and the keys it uses. */
        final List<Node> coordinators;
        final List<PaxosKey> keys;
        int remaining;
        boolean done;
        boolean paused;
        long inFlight;
        final Map<PaxosKey, Long> lastSeen = new HashMap<>();

        Client(int id, Node home, List<Node> coordinators, List<PaxosKey> keys, int ops) {
            this.id = id;
            this.home = home;
            this.coordinators = coordinators;
            this.keys = keys;
            this.remaining = ops;
        }
    }

    private long tokens;

    private void next(Client c) {
        if (c.remaining <= 0) {
            c.done = true;
            return;
        }
        if (options.purgeGraceNanos() > 0 && !c.paused && random.nextDouble() < 0.15) {
            c.paused = true; // a pause long enough for partitions to go idle and be purged
            schedule(random.nextLong(3 * options.purgeGraceNanos()), () -> next(c));
            return;
        }
        c.paused = false;
        c.remaining--;
        PaxosKey key = c.keys.get(random.nextDouble() < 0.6 ? 0 : random.nextInt(c.keys.size()));
        Node node = random.nextDouble() < options.homeAffinity() ? c.home : c.coordinators.get(random.nextInt(c.coordinators.size()));
        if (!node.up) { // connection refused: nothing was sent
            schedule(MS, () -> next(c));
            return;
        }
        Kind kind;
        Long expected = c.lastSeen.get(key);
        Long write = ++valueCounter;
        Bytes query = SimRow.ALL;
        double roll = random.nextDouble();
        if (roll < options.readShare()) {
            kind = Kind.READ;
            write = null;
            if (random.nextBoolean()) query = SimRow.REGISTER;
        } else if (roll < options.readShare() + 0.08) {
            kind = Kind.SET;
        } else if (roll < options.readShare() + 0.16) {
            kind = Kind.CAS;
            write = null; // delete if equal
        } else if (roll < options.readShare() + 0.24) {
            kind = Kind.CAS;
            expected = null; // insert if absent
        } else {
            kind = Kind.CAS;
        }
        if (kind == Kind.CAS && expected == null && write == null) write = valueCounter; // no "delete if absent"
        Electorate electorate = switch (options.serial()) {
            case SERIAL -> node.sawJoin ? joined : everyone;
            case LOCAL_SERIAL -> local.get(node.dc);
            case MIXED -> random.nextBoolean() ? everyone : local.get(node.dc);
        };
        CommitLevel level = options.commitLevels()[random.nextInt(options.commitLevels().length)]
                .resolve(electorate, dataCenters.get(node.dc), dataCenters);
        SimRequest request = new SimRequest(kind, kind == Kind.CAS ? expected : null, write, query);
        long token = ++tokens;
        long invoke = now;
        c.inFlight = token;
        opsIssued++;
        schedule(options.opTimeoutNanos() + 300 * MS, () -> {
            if (c.inFlight != token) return; // the coordinator crashed: the outcome is unknown
            c.inFlight = 0;
            record(c, key, request, invoke, null);
            schedule(random.nextLong(5 * MS), () -> next(c));
        });
        node.coordinator.submit(key, electorate, request, level, node.clock.nanoTime() + options.opTimeoutNanos(), WorkSlot.NONE, result -> {
            if (c.inFlight != token) return;
            c.inFlight = 0;
            record(c, key, request, invoke, result);
            schedule(random.nextLong(5 * MS), () -> next(c));
        });
    }

    private void record(Client c, PaxosKey key, SimRequest request, long invoke, CasResult result) {
        List<Op> ops = history.get(key);
        int id = ops.size();
        CasResult.Outcome outcome = result == null ? CasResult.Outcome.UNKNOWN : result.outcome();
        outcomes.merge(outcome, 1, Integer::sum);
        Op op;
        switch (outcome) {
            case APPLIED, COMMIT_TIMEOUT, NOT_APPLIED -> {
                Long observed = SimRow.value(result.current(), 'v');
                boolean applied = outcome.applied();
                op = new Op(id, c.id, invoke, now, request.kind(), request.expected(), request.write(), observed, applied);
                c.lastSeen.put(key, applied ? request.write() : observed);
                observations.add(new Observation(key, invoke, request.query(), result.current()));
                if (applied) {
                    appliedCount++;
                    appliedRoundTrips += result.roundTrips();
                }
                if (result.fastPath()) fastPathCount++;
            }
            case UNKNOWN -> op = new Op(id, c.id, invoke, Op.UNKNOWN, request.kind(), request.expected(), request.write(), null, false);
            default -> { return; } // TIMED_OUT, UNAVAILABLE: claimed to have no effect; the checker verifies it
        }
        ops.add(op);
        if (request.write() != null && request.kind() != Kind.READ) writers.get(key).put(request.write(), op);
    }

    // ------------------------------------------------------------------ checks

    private List<String> check() {
        List<String> violations = new ArrayList<>(acceptorFailures);
        for (PaxosKey key : keys) {
            LinearizabilityChecker.Result r = LinearizabilityChecker.check(history.get(key), null, 20_000_000);
            if (!r.linearizable()) violations.add("not linearizable on " + key + ": " + r.detail());
        }
        checkPlainWritesVisible(violations);
        checkAgreement(violations);
        return violations;
    }

    private long completedBefore(PaxosKey key, long nanos) {
        long k = 0;
        for (PlainRecord p : plainLog.get(key)) if (p.completeNanos() < nanos) k = Math.max(k, p.k());
        return k;
    }

    /** §5.7: every state a request saw, and every update it made, includes the plain writes completed before it began. */
    private void checkPlainWritesVisible(List<String> violations) {
        for (Observation o : observations) {
            if (SimRow.reads(o.query(), 'p')) {
                Long p = SimRow.value(o.row(), 'p');
                long need = completedBefore(o.key(), o.invokeNanos());
                if ((p == null ? 0 : p) < need)
                    violations.add("stale read on " + o.key() + ": saw p=" + p + " but plain write " + need
                            + " completed before the request began at " + o.invokeNanos());
            }
            Long v = SimRow.value(o.row(), 'v');
            Long q = SimRow.value(o.row(), 'q');
            Op writer = v == null ? null : writers.get(o.key()).get(v);
            if (writer != null && q != null) {
                long need = completedBefore(o.key(), writer.invokeNanos());
                if (q < need)
                    violations.add("stale evaluation on " + o.key() + ": the update writing v=" + v + " (" + writer
                            + ") saw p=" + q + " but plain write " + need + " completed before it began");
            }
        }
    }

    /** Paxos agreement: every replica applied the same entries for the same ballot. */
    private void checkAgreement(List<String> violations) {
        Map<String, Decree> seen = new HashMap<>();
        for (Node n : nodes) {
            for (SimStore.Applied a : n.store.applied()) {
                String id = a.key() + "@" + a.decree().ballot();
                Decree before = seen.putIfAbsent(id, a.decree());
                if (before != null && (!Objects.equals(before.entries(), a.decree().entries())
                        || !before.origin().equals(a.decree().origin())))
                    violations.add("disagreement on " + id + ": " + before + " vs " + a.decree() + " at " + n.id);
            }
        }
    }
}

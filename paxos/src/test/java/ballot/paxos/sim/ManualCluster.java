package ballot.paxos.sim;

import ballot.paxos.Bytes;
import ballot.paxos.Electorate;
import ballot.paxos.Mark;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorShell;
import ballot.paxos.coordinator.CasCoordinator;
import ballot.paxos.coordinator.CasRequest;
import ballot.paxos.coordinator.CasResult;
import ballot.paxos.coordinator.WorkSlot;
import ballot.paxos.message.Message;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.spi.Clock;
import ballot.paxos.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A cluster whose network a test drives by hand, for scripted scenarios (docs/paxos.md §10, layer 2): messages wait
 * in flight until the test delivers or drops them; time moves only when the test advances it. Replicas are nodes 1-3;
 * coordinators may run on any node id (node 4 is not a replica).
 */
final class ManualCluster {
    record Envelope(NodeId from, NodeId to, Message message) {
        @Override
        public String toString() {
            return from + "->" + to + " " + message.getClass().getSimpleName() + " " + message.ballot();
        }
    }

    static final PaxosKey KEY = PaxosKey.of("k");
    static final NodeId N1 = NodeId.of(1), N2 = NodeId.of(2), N3 = NodeId.of(3), N4 = NodeId.of(4);
    static final Electorate ELECTORATE = Electorate.of(N1, N2, N3);

    final Map<NodeId, SimStore> stores = new LinkedHashMap<>();
    final Map<NodeId, AcceptorShell> acceptors = new LinkedHashMap<>();
    /** The acceptors' home executor: its tasks run right after the delivery that caused them. */
    private final java.util.ArrayDeque<Runnable> acceptorTasks = new java.util.ArrayDeque<>();
    final Map<NodeId, CasCoordinator> coordinators = new LinkedHashMap<>();
    final List<Envelope> inFlight = new ArrayList<>();
    final Set<NodeId> down = new HashSet<>();
    final Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
    long nanos = 1_000_000_000L;
    long valueSeq;
    final Clock clock = new Clock() {
        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public long wallMicros() {
            return 1_700_000_000_000_000L + nanos / 1000;
        }
    };

    ManualCluster() {
        for (NodeId n : ELECTORATE.voters()) {
            // Persists land at once: the scenarios script the network, not the disk.
            SimStore[] store = new SimStore[1];
            store[0] = new SimStore(SimStore.Bug.NONE, write -> {
                store[0].land(write);
                write.done().accept(null);
            });
            stores.put(n, store[0]);
            acceptors.put(n, acceptor(n));
        }
    }

    private AcceptorShell acceptor(NodeId n) {
        return new AcceptorShell(n, stores.get(n), acceptorTasks::add, mark -> marks.merge(mark, 1, Integer::sum), key -> false, 1024, 1024);
    }

    /**
     * Node {@code n}'s process crashes and restarts: its acceptor keeps only what its store made durable (promises it
     * kept in memory are gone), its coordinator starts afresh, and messages in flight to it are lost.
     */
    void crash(NodeId n, int incarnation) {
        drop(to(n));
        acceptors.put(n, acceptor(n));
        restartCoordinator(n, incarnation);
    }

    /** For coordinators created from now on. */
    int idleSessionsMax = 4096;
    /** For coordinators created from now on. */
    int partitionQueueMax = Integer.MAX_VALUE;

    CasCoordinator coordinator(NodeId node) {
        return coordinators.computeIfAbsent(node, n -> CasCoordinator.builder()
                .self(n, 0)
                .transport(transport(n))
                .clock(clock)
                .random(bound -> bound / 2)
                .readModel(SimRow.MODEL)
                .observer(mark -> marks.merge(mark, 1, Integer::sum))
                .retransmit(Duration.ofMillis(50))
                .backoff(Duration.ofMillis(2), Duration.ofMillis(10))
                .recoveryGrace(Duration.ofMillis(5))
                .idleSessionsMax(idleSessionsMax)
                .partitionQueueMax(partitionQueueMax)
                .build());
    }

    /** Replaces a coordinator by a fresh one, as a crash and restart would (its pending requests get no answer). */
    void restartCoordinator(NodeId node, int incarnation) {
        coordinators.put(node, CasCoordinator.builder().self(node, incarnation).transport(transport(node)).clock(clock)
                .random(bound -> bound / 2).readModel(SimRow.MODEL).observer(mark -> marks.merge(mark, 1, Integer::sum))
                .retransmit(Duration.ofMillis(50)).backoff(Duration.ofMillis(2), Duration.ofMillis(10)).build());
    }

    private Transport transport(NodeId self) {
        return new Transport() {
            @Override
            public void send(NodeId to, Message message) {
                inFlight.add(new Envelope(self, to, message));
            }

            @Override
            public boolean isAlive(NodeId node) {
                return !down.contains(node);
            }
        };
    }

    /** Submits a request a millisecond after the previous one; the returned list receives its result. */
    List<CasResult> submit(NodeId coordinator, CasRequest request, SimLevel level) {
        return submit(coordinator, KEY, request, level);
    }

    /** The same on another partition. */
    List<CasResult> submit(NodeId coordinator, PaxosKey key, CasRequest request, SimLevel level) {
        return submit(coordinator, key, request, level, WorkSlot.NONE);
    }

    /** The same with {@code slot} for the request's admission. */
    List<CasResult> submit(NodeId coordinator, PaxosKey key, CasRequest request, SimLevel level, WorkSlot slot) {
        nanos += 1_000_000L; // wall time moves on, as it does between requests
        List<CasResult> out = new ArrayList<>();
        coordinator(coordinator).submit(key, ELECTORATE, request, level.resolve(ELECTORATE), nanos + 1_000_000_000L, slot, out::add);
        return out;
    }

    SimRequest cas(Long expected, Long write) {
        return new SimRequest(LinearizabilityChecker.Kind.CAS, expected, write, SimRow.ALL);
    }

    SimRequest set(long write) {
        return new SimRequest(LinearizabilityChecker.Kind.SET, null, write, SimRow.ALL);
    }

    SimRequest read() {
        return new SimRequest(LinearizabilityChecker.Kind.READ, null, null, SimRow.ALL);
    }

    /** Delivers matching messages (and what they cause) until none match; others stay in flight. */
    int deliver(Predicate<Envelope> which) {
        return deliver(which, Integer.MAX_VALUE);
    }

    /** The same, stopping after {@code max} deliveries (a scenario that might not settle). */
    int deliver(Predicate<Envelope> which, int max) {
        int delivered = 0;
        boolean progress = true;
        while (progress && delivered < max) {
            progress = false;
            for (Iterator<Envelope> it = inFlight.iterator(); it.hasNext(); ) {
                Envelope e = it.next();
                if (!which.test(e)) continue;
                it.remove();
                delivered++;
                progress = true;
                if (!down.contains(e.to())) handle(e);
                break; // handling may add messages: restart the scan in send order
            }
        }
        return delivered;
    }

    int deliverAll() {
        return deliver(e -> true);
    }

    int drop(Predicate<Envelope> which) {
        int before = inFlight.size();
        inFlight.removeIf(which);
        return before - inFlight.size();
    }

    private void handle(Envelope e) {
        if (e.message() instanceof Request request) {
            AcceptorShell acceptor = acceptors.get(e.to());
            if (acceptor == null) return;
            Transport transport = transport(e.to());
            acceptor.receive(request, new AcceptorShell.Answer() {
                @Override
                public void reply(Reply reply) {
                    if (reply != null) transport.send(e.from(), reply);
                }

                @Override
                public void fail(RuntimeException failure) {
                    throw new AssertionError("acceptor step failed on " + e.to(), failure);
                }
            });
            for (Runnable task; (task = acceptorTasks.poll()) != null; ) task.run();
        } else {
            CasCoordinator c = coordinators.get(e.to());
            if (c != null) c.receive(e.from(), (Reply) e.message());
        }
    }

    void advance(Duration d) {
        long end = nanos + d.toNanos();
        while (nanos < end) {
            nanos = Math.min(end, nanos + 1_000_000L);
            for (CasCoordinator c : List.copyOf(coordinators.values())) c.tick();
        }
    }

    /** A plain write of cell p at the given replicas (a QUORUM write that reached them). */
    void plainWrite(long k, NodeId... at) {
        Map<Character, SimRow.Cell> cells = new TreeMap<>();
        cells.put('p', new SimRow.Cell(k, false, 0));
        for (NodeId n : at) stores.get(n).plainWrite(KEY, cells, k);
    }

    static Predicate<Envelope> to(NodeId... nodes) {
        Set<NodeId> set = Set.of(nodes);
        return e -> set.contains(e.to());
    }

    static Predicate<Envelope> from(NodeId... nodes) {
        Set<NodeId> set = Set.of(nodes);
        return e -> set.contains(e.from());
    }

    /** Requests sent by the coordinator on these nodes. */
    static Predicate<Envelope> requestsFrom(NodeId... nodes) {
        return from(nodes).and(e -> e.message() instanceof Request);
    }

    /** Replies to the coordinator on these nodes. */
    static Predicate<Envelope> repliesTo(NodeId... nodes) {
        return to(nodes).and(e -> e.message() instanceof Reply);
    }

    static Predicate<Envelope> is(Class<? extends Message> type) {
        return e -> type.isInstance(e.message());
    }

    static Long v(CasResult r) {
        return SimRow.value(r.current(), 'v');
    }

    static Long p(CasResult r) {
        return SimRow.value(r.current(), 'p');
    }

    Long storedV(NodeId n) {
        SimRow.Cell c = stores.get(n).row(KEY).get('v');
        return c == null ? null : c.valueOrNull();
    }

    static Bytes query() {
        return SimRow.ALL;
    }
}

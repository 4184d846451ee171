package ballot.paxos.sim;

import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import ballot.paxos.spi.LocalRead;
import ballot.paxos.spi.PaxosStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One simulated replica's durable storage: Paxos registers, base-table rows and plain-write versions. Everything in
 * it survives a crash of the process; the node's coordinator does not. A persist is asynchronous, as the server's
 * group commit is: it stays in flight until its {@link Disk} lands it, and a crash resolves each one in flight either
 * way (it reached the disk or it did not), answering none. A {@link #powerLoss} also undoes, newest first, every
 * write landed without a sync since the last synced one (one write-ahead log: a sync covers all written before it).
 *
 * <p>Deliberate bugs can be planted to prove the checks catch them: {@link Bug#FORGET_PROMISES} drops a write
 * that only changes the promise (a missing fsync on prepare), {@link Bug#IGNORE_PLAIN_WRITES} reports a constant
 * plain-write version (so the fast path cannot notice plain writes), {@link Bug#ACKNOWLEDGE_BEFORE_DURABLE} reports
 * a persist done as soon as it is submitted (a group commit that answers before its fsync), {@link Bug#JOINER_VOTES}
 * lets a node that joined take part in the votes of keys it has no history of (§4.14), {@link Bug#UNSYNCED_VOTES}
 * writes promises and acceptances without a sync, as commits are (§4.15: what the server's {@code paxos_sync:
 * commitlog} does, and a bug only where power losses are simulated), {@link Bug#UNSYNCED_CLEARING_COMMITS} writes
 * a commit that clears the replica's acceptance without a sync, and {@link Bug#CLAIMED_DECISIONS} (planted in the
 * simulated network) makes every proposal claim that its acceptance decides it, votes first or not (§4.6.1), and
 * {@link Bug#OWN_VOTE_NOT_AWAITED} (in the network too) sends a proposal its coordinator holds back for its own
 * replica's vote to the other voters at once, although that replica may have promised its ballot in memory only
 * (§4.2.5).
 */
final class SimStore implements PaxosStore {
    enum Bug {
        NONE, FORGET_PROMISES, IGNORE_PLAIN_WRITES, ACKNOWLEDGE_BEFORE_DURABLE, JOINER_VOTES, UNSYNCED_VOTES,
        UNSYNCED_CLEARING_COMMITS, CLAIMED_DECISIONS, OWN_VOTE_NOT_AWAITED
    }

    /** A decree as applied here, for the agreement check. */
    record Applied(PaxosKey key, Decree decree) {}

    /** A persist taken and not yet on disk. */
    record PendingWrite(PaxosKey key, AcceptorState state, List<Decree> apply, boolean sync, Consumer<RuntimeException> done) {}

    /** Decides when a persist reaches the disk: calls {@link #land} for it then, or never (a crash resolves it). */
    interface Disk {
        void submitted(PendingWrite write);
    }

    private final Bug bug;
    private final Map<PaxosKey, AcceptorState> registers = new HashMap<>();
    private final Map<PaxosKey, TreeMap<Character, SimRow.Cell>> rows = new HashMap<>();
    private final Map<PaxosKey, Long> versions = new HashMap<>();
    private final List<Applied> applied = new ArrayList<>();
    /** Persists in flight, at most one per partition (docs/paxos.md §4.12, invariant 2), in submission order. */
    private final Map<PaxosKey, PendingWrite> inFlight = new LinkedHashMap<>();
    private final Disk disk;
    /** How to undo each write landed without a sync since the last synced one, oldest first. */
    private final List<Runnable> unsynced = new ArrayList<>();
    private long versionCounter;

    SimStore(Bug bug, Disk disk) {
        this.bug = bug;
        this.disk = disk;
    }

    /** The ballot floor (docs/paxos.md §4.13): durable, never lowered; a partition without registers reads as its floor state. */
    private long floorMicros;

    @Override
    public AcceptorState load(PaxosKey key) {
        return registers.getOrDefault(key, AcceptorState.floor(floorMicros));
    }

    /** Makes {@code micros} the ballot floor, durably, if it is higher than the current one. */
    void raiseFloor(long micros) {
        floorMicros = Math.max(floorMicros, micros);
    }

    long floorMicros() {
        return floorMicros;
    }

    /** The partitions that have registers. */
    List<PaxosKey> partitionsWithRegisters() {
        return new ArrayList<>(registers.keySet());
    }

    @Override
    public void persist(PaxosKey key, AcceptorState state, List<Decree> apply, boolean sync, Consumer<RuntimeException> done) {
        if (bug == Bug.UNSYNCED_VOTES) sync = false;
        if (bug == Bug.UNSYNCED_CLEARING_COMMITS && state.accepted() == null && load(key).accepted() != null) sync = false;
        if (bug == Bug.ACKNOWLEDGE_BEFORE_DURABLE) {
            PendingWrite earlier = inFlight.remove(key); // the acceptor moved on: the disk keeps writes in order
            if (earlier != null) write(earlier);
            PendingWrite write = new PendingWrite(key, state, List.copyOf(apply), sync, failed -> { });
            inFlight.put(key, write);
            disk.submitted(write);
            done.accept(null);
            return;
        }
        PendingWrite write = new PendingWrite(key, state, List.copyOf(apply), sync, done);
        PendingWrite earlier = inFlight.putIfAbsent(key, write);
        if (earlier != null) throw new IllegalStateException("a second persist of " + key + " while " + earlier + " is in flight");
        disk.submitted(write);
    }

    /** The write reaches the disk; false if a crash resolved it first (then it must not be answered). */
    boolean land(PendingWrite write) {
        if (inFlight.get(write.key()) != write) return false;
        inFlight.remove(write.key());
        write(write);
        return true;
    }

    /** A crash: each persist in flight reached the disk or did not, as {@code reachedDisk} decides; none is answered. */
    void crash(BooleanSupplier reachedDisk) {
        for (PendingWrite w : inFlight.values()) if (reachedDisk.getAsBoolean()) write(w);
        inFlight.clear();
    }

    /**
     * The machine loses power: no persist in flight reached the disk, and every write landed without a sync since the
     * last synced one is undone, newest first. Returns how many were undone.
     */
    int powerLoss() {
        inFlight.clear();
        int undone = unsynced.size();
        for (int i = undone - 1; i >= 0; i--) unsynced.get(i).run();
        unsynced.clear();
        return undone;
    }

    private void write(PendingWrite w) {
        if (w.sync()) {
            unsynced.clear(); // the sync makes every earlier write durable too
            write(w.key(), w.state(), w.apply());
            return;
        }
        PaxosKey key = w.key();
        AcceptorState registersBefore = registers.get(key);
        TreeMap<Character, SimRow.Cell> row = rows.computeIfAbsent(key, k -> new TreeMap<>());
        Map<Character, SimRow.Cell> cellsBefore = new HashMap<>();
        for (Decree d : w.apply())
            for (Bytes entry : d.entries()) for (Character c : SimRow.decode(entry).keySet()) cellsBefore.putIfAbsent(c, row.get(c));
        write(key, w.state(), w.apply());
        Map<Character, SimRow.Cell> cellsAfter = new HashMap<>();
        for (Character c : cellsBefore.keySet()) cellsAfter.put(c, row.get(c));
        unsynced.add(() -> {
            if (registersBefore == null) registers.remove(key);
            else registers.put(key, registersBefore);
            cellsBefore.forEach((c, before) -> { // a later plain write (not undone here) keeps its cell
                if (row.get(c) != cellsAfter.get(c)) return;
                if (before == null) row.remove(c);
                else row.put(c, before);
            });
        });
    }

    private void write(PaxosKey key, AcceptorState state, List<Decree> apply) {
        AcceptorState before = load(key);
        boolean promiseOnly = apply.isEmpty() && state.accepted() == before.accepted()
                && state.committed() == before.committed() && !state.promised().equals(before.promised());
        if (state.isFloor()) registers.remove(key);
        else if (!(bug == Bug.FORGET_PROMISES && promiseOnly)) registers.put(key, state);
        TreeMap<Character, SimRow.Cell> row = rows.computeIfAbsent(key, k -> new TreeMap<>());
        for (Decree d : apply) {
            applied.add(new Applied(key, d));
            for (int i = 0; i < d.entries().size(); i++)
                SimRow.applyInPlace(row, SimRow.decode(d.entries().get(i)), d.timestampMicros(i), null);
        }
    }

    @Override
    public LocalRead read(PaxosKey key, List<Bytes> queries) {
        TreeMap<Character, SimRow.Cell> row = rows.getOrDefault(key, new TreeMap<>());
        List<Bytes> results = new ArrayList<>(queries.size());
        for (Bytes q : queries) results.add(SimRow.select(row, q));
        return new LocalRead(results, plainVersion(key));
    }

    @Override
    public long plainVersion(PaxosKey key) {
        return bug == Bug.IGNORE_PLAIN_WRITES ? 0 : versions.getOrDefault(key, 0L);
    }

    /** A non-Paxos write: changes the data and the partition's plain-write version. */
    void plainWrite(PaxosKey key, Map<Character, SimRow.Cell> cells, long timestamp) {
        SimRow.applyInPlace(rows.computeIfAbsent(key, k -> new TreeMap<>()), cells, timestamp, null);
        versions.put(key, ++versionCounter);
    }

    List<Applied> applied() {
        return applied;
    }

    Map<Character, SimRow.Cell> row(PaxosKey key) {
        return rows.getOrDefault(key, new TreeMap<>());
    }
}

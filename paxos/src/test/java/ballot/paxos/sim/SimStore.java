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
 * it survives a crash (it stands for what was synced to disk); the node's coordinator does not. A persist is
 * asynchronous, as the server's group commit is: it stays in flight until its {@link Disk} lands it, and a crash
 * resolves each one in flight either way (it reached the disk or it did not), answering none.
 *
 * <p>Deliberate bugs can be planted to prove the checks catch them: {@link Bug#FORGET_PROMISES} drops a write
 * that only changes the promise (a missing fsync on prepare), {@link Bug#IGNORE_PLAIN_WRITES} reports a constant
 * plain-write version (so the fast path cannot notice plain writes), {@link Bug#ACKNOWLEDGE_BEFORE_DURABLE} reports
 * a persist done as soon as it is submitted (a group commit that answers before its fsync), {@link Bug#JOINER_VOTES}
 * lets a node that joined take part in the votes of keys it has no history of (§4.14).
 */
final class SimStore implements PaxosStore {
    enum Bug { NONE, FORGET_PROMISES, IGNORE_PLAIN_WRITES, ACKNOWLEDGE_BEFORE_DURABLE, JOINER_VOTES }

    /** A decree as applied here, for the agreement check. */
    record Applied(PaxosKey key, Decree decree) {}

    /** A persist taken and not yet on disk. */
    record PendingWrite(PaxosKey key, AcceptorState state, List<Decree> apply, Consumer<RuntimeException> done) {}

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
    public void persist(PaxosKey key, AcceptorState state, List<Decree> apply, Consumer<RuntimeException> done) {
        if (bug == Bug.ACKNOWLEDGE_BEFORE_DURABLE) {
            PendingWrite earlier = inFlight.remove(key); // the acceptor moved on: the disk keeps writes in order
            if (earlier != null) write(earlier.key(), earlier.state(), earlier.apply());
            PendingWrite write = new PendingWrite(key, state, List.copyOf(apply), failed -> { });
            inFlight.put(key, write);
            disk.submitted(write);
            done.accept(null);
            return;
        }
        PendingWrite write = new PendingWrite(key, state, List.copyOf(apply), done);
        PendingWrite earlier = inFlight.putIfAbsent(key, write);
        if (earlier != null) throw new IllegalStateException("a second persist of " + key + " while " + earlier + " is in flight");
        disk.submitted(write);
    }

    /** The write reaches the disk; false if a crash resolved it first (then it must not be answered). */
    boolean land(PendingWrite write) {
        if (inFlight.get(write.key()) != write) return false;
        inFlight.remove(write.key());
        write(write.key(), write.state(), write.apply());
        return true;
    }

    /** A crash: each persist in flight reached the disk or did not, as {@code reachedDisk} decides; none is answered. */
    void crash(BooleanSupplier reachedDisk) {
        for (PendingWrite w : inFlight.values()) if (reachedDisk.getAsBoolean()) write(w.key(), w.state(), w.apply());
        inFlight.clear();
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

package ballot.paxos.sim;

import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import ballot.paxos.spi.LocalRead;
import ballot.paxos.spi.PaxosStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One simulated replica's durable storage: Paxos registers, base-table rows and plain-write versions. Everything in
 * it survives a crash (it stands for what was synced to disk); the node's coordinator does not.
 *
 * <p>Two deliberate bugs can be planted to prove the checks catch them: {@link Bug#FORGET_PROMISES} drops a write
 * that only changes the promise (a missing fsync on prepare), {@link Bug#IGNORE_PLAIN_WRITES} reports a constant
 * plain-write version (so the fast path cannot notice plain writes).
 */
final class SimStore implements PaxosStore {
    enum Bug { NONE, FORGET_PROMISES, IGNORE_PLAIN_WRITES }

    /** A decree as applied here, for the agreement check. */
    record Applied(PaxosKey key, Decree decree) {}

    private final Bug bug;
    private final Map<PaxosKey, AcceptorState> registers = new HashMap<>();
    private final Map<PaxosKey, TreeMap<Character, SimRow.Cell>> rows = new HashMap<>();
    private final Map<PaxosKey, Long> versions = new HashMap<>();
    private final List<Applied> applied = new ArrayList<>();
    private long versionCounter;
    /** Set by the simulation to crash the node right after the next persist, before the reply is sent. */
    Runnable afterPersist;

    SimStore(Bug bug) {
        this.bug = bug;
    }

    @Override
    public AcceptorState load(PaxosKey key) {
        return registers.getOrDefault(key, AcceptorState.EMPTY);
    }

    @Override
    public void persist(PaxosKey key, AcceptorState state, List<Decree> apply) {
        AcceptorState before = load(key);
        boolean promiseOnly = apply.isEmpty() && state.accepted() == before.accepted()
                && state.committed() == before.committed() && !state.promised().equals(before.promised());
        if (!(bug == Bug.FORGET_PROMISES && promiseOnly)) registers.put(key, state);
        TreeMap<Character, SimRow.Cell> row = rows.computeIfAbsent(key, k -> new TreeMap<>());
        for (Decree d : apply) {
            applied.add(new Applied(key, d));
            for (int i = 0; i < d.entries().size(); i++)
                SimRow.applyInPlace(row, SimRow.decode(d.entries().get(i)), d.timestampMicros(i), null);
        }
        Runnable crash = afterPersist;
        afterPersist = null;
        if (crash != null) crash.run();
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

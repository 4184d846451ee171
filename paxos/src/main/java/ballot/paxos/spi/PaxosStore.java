package ballot.paxos.spi;

import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import java.util.List;
import java.util.function.Consumer;

/**
 * One replica's durable state for Paxos: the acceptor registers of each partition (system.paxos) and access to the
 * partition's base-table data. Implemented by the server on RocksDB and in memory by the simulation.
 *
 * <p>Contract (docs/paxos.md §9):
 * <ul>
 *   <li>{@link #persist} makes the registers durable and applies the decrees' entries to the base table atomically
 *       (one write batch), and calls {@code done} once both are durable (with null), or with the failure that leaves
 *       it unknown whether they are; on any thread, possibly before {@code persist} returns. Durable means synced
 *       to disk when {@code sync} is set; otherwise written where a crash of the process cannot lose it (a power
 *       loss may lose it, and then everything written after it, but nothing synced before it: the store keeps one
 *       order of writes). A store may be configured to treat every step as unsynced (the server's
 *       {@code paxos_sync: commitlog}, docs/paxos.md §4.15), which gives up the power-loss guarantee. The
 *       acceptor replies only after that ("persist, then acknowledge"), and never has two persists of one
 *       partition in flight, so a store may complete different partitions' persists in any order (docs/paxos.md
 *       §4.12).
 *   <li>Entry {@code i} of a decree is applied with write timestamp {@link Decree#timestampMicros(int)}; later
 *       entries of one decree win over earlier ones. Applying a decree twice must be harmless (last-write-wins).
 *   <li>The plain-write version of a partition changes whenever anything other than {@link #persist} changes the
 *       partition's base data (plain writes, hints, read repair, streaming, truncation) and never returns to an
 *       earlier value; {@link #persist} must not change it.
 * </ul>
 */
public interface PaxosStore {
    /**
     * The partition's registers, or if it has none, the floor state of the store's ballot floor
     * ({@link AcceptorState#floor}; {@link AcceptorState#EMPTY} while no register was ever purged). Persisting a
     * floor state deletes the registers (docs/paxos.md §4.13).
     */
    AcceptorState load(PaxosKey key);

    void persist(PaxosKey key, AcceptorState state, List<Decree> apply, boolean sync, Consumer<RuntimeException> done);

    /** Reads the queries from one snapshot of the partition's base data, with its plain-write version. */
    LocalRead read(PaxosKey key, List<Bytes> queries);

    long plainVersion(PaxosKey key);
}

package ballot.paxos.spi;

import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import java.util.List;

/**
 * One replica's durable state for Paxos: the acceptor registers of each partition (system.paxos) and access to the
 * partition's base-table data. Implemented by the server on RocksDB and in memory by the simulation.
 *
 * <p>Contract (docs/paxos.md §9):
 * <ul>
 *   <li>{@link #persist} makes the registers durable and applies the decrees' entries to the base table atomically
 *       (one write batch) and returns only once both are synced to disk; group commit may delay the return. The
 *       caller replies only after it returns ("persist, then acknowledge").
 *   <li>Entry {@code i} of a decree is applied with write timestamp {@link Decree#timestampMicros(int)}; later
 *       entries of one decree win over earlier ones. Applying a decree twice must be harmless (last-write-wins).
 *   <li>The plain-write version of a partition changes whenever anything other than {@link #persist} changes the
 *       partition's base data (plain writes, hints, read repair, streaming, truncation) and never returns to an
 *       earlier value; {@link #persist} must not change it.
 * </ul>
 */
public interface PaxosStore {
    /** The partition's registers, or {@link AcceptorState#EMPTY} if it has none. */
    AcceptorState load(PaxosKey key);

    void persist(PaxosKey key, AcceptorState state, List<Decree> apply);

    /** Reads the queries from one snapshot of the partition's base data, with its plain-write version. */
    LocalRead read(PaxosKey key, List<Bytes> queries);

    long plainVersion(PaxosKey key);
}

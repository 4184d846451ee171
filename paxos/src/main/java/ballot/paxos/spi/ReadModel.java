package ballot.paxos.spi;

import ballot.paxos.Bytes;
import java.util.List;

/**
 * The caller's semantics for read results and updates, which the core otherwise treats as opaque bytes. The CQL
 * layer implements it over its partition data model (last-write-wins cells and tombstones).
 *
 * <p>Both functions must be deterministic. {@link #merge} must be a join: commutative, associative and idempotent,
 * so that merging any replicas' results in any order gives the same state (docs/paxos.md §5.3).
 */
public interface ReadModel {
    /** Reconciles results for {@code query} (replica reads, or a cached state with a replica read). */
    Bytes merge(Bytes query, List<Bytes> results);

    /** The result {@code query} would return after {@code update} is written with {@code timestampMicros}. */
    Bytes apply(Bytes query, Bytes result, Bytes update, long timestampMicros);

    /**
     * The result of {@code query} that {@code result}, a result of the query {@code wider}, contains, or null if
     * {@code wider} does not read everything {@code query} reads. It must be what merging the same replicas' reads of
     * {@code query} would give, so that a held promise's state answers a narrower query without a read (§4.8). By
     * default no query covers another.
     */
    default Bytes narrow(Bytes query, Bytes wider, Bytes result) {
        return null;
    }
}

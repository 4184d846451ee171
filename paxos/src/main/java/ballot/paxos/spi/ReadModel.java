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
}

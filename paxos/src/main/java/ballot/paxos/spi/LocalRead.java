package ballot.paxos.spi;

import ballot.paxos.Bytes;
import java.util.List;

/**
 * What a replica read from its own base table for a promise: one result per query, and the partition's plain-write
 * version, taken from the same snapshot (docs/paxos.md §4.2, §4.8).
 */
public record LocalRead(List<Bytes> results, long plainVersion) {
    public LocalRead {
        results = List.copyOf(results);
    }
}

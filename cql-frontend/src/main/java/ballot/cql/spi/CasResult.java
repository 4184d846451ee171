package ballot.cql.spi;

import ballot.cql.data.PartitionData;

/** The outcome of a compare-and-set: whether it applied, and the state its condition was evaluated on. */
public record CasResult(boolean applied, PartitionData current) {}

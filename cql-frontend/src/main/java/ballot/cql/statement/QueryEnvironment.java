package ballot.cql.statement;

import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.SchemaStore;
import java.util.function.LongSupplier;

/**
 * The node services statements run against. {@code timestampMicros} gives a fresh, strictly increasing write
 * timestamp; {@code currentTimeMillis} is the wall clock (both injectable for tests).
 */
public record QueryEnvironment(DataCoordinator data, SchemaStore schemas, LongSupplier timestampMicros,
        LongSupplier currentTimeMillis, NodeInfo node) {

    /** What DESCRIBE CLUSTER and similar statements report about the node. */
    public record NodeInfo(String clusterName, String partitioner, String dataCenter) {}
}

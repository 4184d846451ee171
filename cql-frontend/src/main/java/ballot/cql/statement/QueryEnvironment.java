package ballot.cql.statement;

import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.SchemaStore;
import java.util.function.LongSupplier;

/**
 * The node services statements run against: plain reads and writes ({@code data}), conditional statements and SERIAL
 * reads ({@code lwt}), the schema. {@code timestampMicros} gives a fresh, strictly increasing write
 * timestamp; {@code currentTimeMillis} is the wall clock (both injectable for tests).
 */
public record QueryEnvironment(DataCoordinator data, LwtCoordinator lwt, SchemaStore schemas, LongSupplier timestampMicros,
        LongSupplier currentTimeMillis, NodeInfo node) {

    /** What DESCRIBE CLUSTER and similar statements report about the node. */
    public record NodeInfo(String clusterName, String partitioner, String dataCenter) {}
}

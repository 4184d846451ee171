package ballot.cql.statement;

import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.Transactions;
import ballot.cql.spi.SchemaStore;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The node services statements run against: plain reads and writes ({@code data}), conditional statements and SERIAL
 * reads ({@code lwt}), multi-partition transactions ({@code transactions}), the schema. {@code timestampMicros} gives a fresh, strictly increasing write
 * timestamp; {@code currentTimeMillis} is the wall clock (both injectable for tests).
 */
public record QueryEnvironment(DataCoordinator data, LwtCoordinator lwt, Transactions transactions, SchemaStore schemas,
        LongSupplier timestampMicros, LongSupplier currentTimeMillis, NodeInfo node) {

    /**
     * What DESCRIBE CLUSTER and similar statements report about the node. {@code dataCenters} are the data centers of
     * the cluster's members, this node's included: NetworkTopologyStrategy may name only those, as in Cassandra.
     */
    public record NodeInfo(String clusterName, String partitioner, String dataCenter, Supplier<Set<String>> dataCenters) {
        /** A node that knows of no other data center than its own. */
        public NodeInfo(String clusterName, String partitioner, String dataCenter) {
            this(clusterName, partitioner, dataCenter, () -> Set.of(dataCenter));
        }
    }
}

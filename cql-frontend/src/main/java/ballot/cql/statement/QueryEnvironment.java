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
        LongSupplier timestampMicros, LongSupplier currentTimeMillis, NodeInfo node, Guardrails guardrails) {

    /** With Cassandra's default guardrails. */
    public QueryEnvironment(DataCoordinator data, LwtCoordinator lwt, Transactions transactions, SchemaStore schemas,
            LongSupplier timestampMicros, LongSupplier currentTimeMillis, NodeInfo node) {
        this(data, lwt, transactions, schemas, timestampMicros, currentTimeMillis, node, Guardrails.DEFAULTS);
    }

    /**
     * Limits on what a statement may do, under Cassandra's setting names: a batch over several partitions whose updates
     * exceed {@code batchSizeWarnBytes} ({@code batch_size_warn_threshold_in_kb}) is answered with a warning, and one
     * over {@code batchSizeFailBytes} ({@code batch_size_fail_threshold_in_kb}) is refused.
     */
    public record Guardrails(long batchSizeWarnBytes, long batchSizeFailBytes) {
        public static final Guardrails DEFAULTS = new Guardrails(5 * 1024, 50 * 1024);

        public Guardrails {
            if (batchSizeWarnBytes < 0 || batchSizeFailBytes < batchSizeWarnBytes)
                throw new IllegalArgumentException("batch size thresholds must be 0 <= warn <= fail, were " + batchSizeWarnBytes
                        + " and " + batchSizeFailBytes + " bytes");
        }
    }

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

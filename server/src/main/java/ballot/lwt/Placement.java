package ballot.lwt;

import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import ballot.cql.schema.TableMetadata;
import java.util.List;

/** Where the node's Paxos finds a partition's electorate: the ring's replicas of its token. */
@FunctionalInterface
public interface Placement {
    /**
     * The replicas of {@code token} for the table's keyspace, primary first; throws UnavailableException when too few
     * of them are alive for {@code serial}.
     */
    List<NodeInfo> replicas(TableMetadata table, long token, ConsistencyLevel serial);
}

package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.InvalidRequestException;

/** Which commit consistency a conditional statement or a transaction may ask for, beyond what any write may. */
final class CasCommitConsistency {
    private CasCommitConsistency() {}

    /**
     * EACH_QUORUM needs a keyspace placed by data center: Cassandra refuses it for a conditional update on any other
     * strategy, with this message.
     */
    static void check(ConsistencyLevel commit, String keyspace, QueryContext request) {
        if (commit != ConsistencyLevel.EACH_QUORUM) return;
        String strategy = request.environment().schemas().schema().keyspace(keyspace).replication().get("class");
        if (!strategy.endsWith(".NetworkTopologyStrategy"))
            throw new InvalidRequestException("consistency level EACH_QUORUM not compatible with replication strategy (" + strategy + ")");
    }
}

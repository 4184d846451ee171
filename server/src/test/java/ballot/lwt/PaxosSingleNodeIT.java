package ballot.lwt;

/** LWT semantics on one real node (replication factor 1): Paxos with an electorate of one. */
class PaxosSingleNodeIT extends LwtSemantics {
    @Override
    PaxosCluster startCluster() {
        return PaxosCluster.start("paxos-one", 1, 1000);
    }
}

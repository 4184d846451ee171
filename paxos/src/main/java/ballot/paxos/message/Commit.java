package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;

/** Apply a decided decree to the base table (§4.6). Carries the entries: the acceptor may never have accepted it. */
public record Commit(PaxosKey key, Decree decree) implements Request {
    public Commit {
        if (decree.isPruned()) throw new IllegalArgumentException("a commit must carry its entries: " + decree);
    }

    @Override
    public Ballot ballot() {
        return decree.ballot();
    }
}

package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;

/**
 * Phase 2: accept {@code proposal} (after applying its predecessor). {@code promiseNext}, if present, asks the
 * acceptor to also promise that later ballot, which is phase 1 of the coordinator's next round (§4.8).
 * {@code pruneUpTo}, if present, is a decree every replica has applied (§4.7). {@code sole} says the recipient is the
 * electorate's only replica, so accepting the proposal decides it: the acceptor applies it in the same write (§4.6).
 */
public record Propose(PaxosKey key, Proposal proposal, Ballot promiseNext, Ballot pruneUpTo, boolean sole) implements Request {
    /** A proposal to one replica of several. */
    public Propose(PaxosKey key, Proposal proposal, Ballot promiseNext, Ballot pruneUpTo) {
        this(key, proposal, promiseNext, pruneUpTo, false);
    }

    @Override
    public Ballot ballot() {
        return proposal.ballot();
    }
}

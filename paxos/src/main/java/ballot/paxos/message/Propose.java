package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;

/**
 * Phase 2: accept {@code proposal} (after applying its predecessor). {@code promiseNext}, if present, asks the
 * acceptor to also promise that later ballot, which is phase 1 of the coordinator's next round (§4.8).
 * {@code pruneUpTo}, if present, is a decree every replica has applied (§4.7). {@code decides} says whether this
 * recipient's acceptance completes a quorum, so that the acceptor may apply the proposal in the same write (§4.6).
 */
public record Propose(PaxosKey key, Proposal proposal, Ballot promiseNext, Ballot pruneUpTo, Decides decides) implements Request {
    /** What the recipient's acceptance means. */
    public enum Decides {
        /** Nothing by itself: the coordinator counts the acceptances. */
        NO,
        /**
         * A quorum minus one of the voters durably accepted this very proposal before it was sent here (the
         * coordinator's own replica, §4.6.1): accepting it decides it, and the acceptor applies it as a commit.
         */
        ON_ACCEPT,
        /** The recipient is the electorate's only replica: accepting decides, and every replica (it) applied it. */
        SOLE;

        public boolean onAccept() {
            return this != NO;
        }
    }

    /** A proposal to one replica of several, whose acceptance alone decides nothing. */
    public Propose(PaxosKey key, Proposal proposal, Ballot promiseNext, Ballot pruneUpTo) {
        this(key, proposal, promiseNext, pruneUpTo, Decides.NO);
    }

    @Override
    public Ballot ballot() {
        return proposal.ballot();
    }
}

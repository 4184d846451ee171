package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;

/**
 * The acceptor accepted the proposal with {@code ballot}, having applied the decree {@code appliedPredecessor}
 * (which counts as that decree's commit acknowledgement, §4.6). {@code promisedNext} says whether it also promised
 * the proposal's {@code promiseNext} ballot (§4.8); {@code applied} whether it also applied the proposal itself,
 * because its acceptance decided it (§4.6.1): that counts as the proposal's commit acknowledgement.
 */
public record Accepted(PaxosKey key, Ballot ballot, Ballot appliedPredecessor, boolean promisedNext, boolean applied) implements Reply {
    /** An acceptance that did not apply the proposal. */
    public Accepted(PaxosKey key, Ballot ballot, Ballot appliedPredecessor, boolean promisedNext) {
        this(key, ballot, appliedPredecessor, promisedNext, false);
    }
}

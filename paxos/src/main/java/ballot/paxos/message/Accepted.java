package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;

/**
 * The acceptor accepted the proposal with {@code ballot}, having applied the decree {@code appliedPredecessor}
 * (which counts as that decree's commit acknowledgement, §4.6). {@code promisedNext} says whether it also promised
 * the proposal's {@code promiseNext} ballot (§4.8).
 */
public record Accepted(PaxosKey key, Ballot ballot, Ballot appliedPredecessor, boolean promisedNext) implements Reply {}

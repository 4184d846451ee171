package ballot.paxos.message;

import ballot.paxos.PaxosKey;

/**
 * A protocol message; every message concerns one partition. Requests go from a coordinator to replicas, replies
 * back (docs/paxos.md §3). Records only: the server serialises them for internode messaging.
 */
public sealed interface Message permits Request, Reply {
    PaxosKey key();

    /** The ballot of the round the message belongs to (the committed or pruned ballot for Commit and Prune). */
    ballot.paxos.Ballot ballot();
}

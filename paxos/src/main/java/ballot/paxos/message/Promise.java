package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.spi.LocalRead;

/**
 * The acceptor promised {@code ballot}: it reports its accepted proposal (if any), its latest committed decree, the
 * decrees it applied lately, and its read of the prepare's queries with its plain-write version (§4.2). {@code read} is null only inside the
 * acceptor's step, before the replica shell attaches the read.
 */
public record Promise(PaxosKey key, Ballot ballot, Proposal accepted, Decree committed, RecentDecrees recent,
        LocalRead read) implements Reply {
    public Promise withRead(LocalRead localRead) {
        return new Promise(key, ballot, accepted, committed, recent, localRead);
    }
}

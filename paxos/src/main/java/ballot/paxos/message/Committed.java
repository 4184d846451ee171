package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;

/** The acceptor applied the decree with {@code ballot} to its base table (durably). */
public record Committed(PaxosKey key, Ballot ballot) implements Reply {}

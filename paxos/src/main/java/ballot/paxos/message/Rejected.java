package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;

/**
 * The acceptor refused the prepare or proposal with {@code ballot}. {@code promised} and {@code minMicros} tell the
 * coordinator how far its next ballot must go (§4.9); {@code plainVersion} is reported with a STALE refusal.
 */
public record Rejected(PaxosKey key, Ballot ballot, Phase phase, Reason reason, Ballot promised, long minMicros,
        long plainVersion) implements Reply {
    public enum Phase { PREPARE, PROPOSE }

    public enum Reason {
        /** A later ballot was promised, or the ballot's micros would not follow the last decree's timestamps. */
        SUPERSEDED,
        /** A checked proposal's expected plain-write version does not match this replica's (§5.7). */
        STALE
    }
}

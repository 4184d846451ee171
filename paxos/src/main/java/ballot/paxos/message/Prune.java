package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.PaxosKey;

/** Every replica has applied the decree with ballot {@code upTo}: drop the registers' copies of its entries (§4.7). */
public record Prune(PaxosKey key, Ballot upTo) implements Request {
    @Override
    public Ballot ballot() {
        return upTo;
    }
}

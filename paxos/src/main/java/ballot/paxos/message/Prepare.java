package ballot.paxos.message;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.PaxosKey;
import java.util.List;

/** Phase 1 and the read in one message: promise {@code ballot}, and return these queries' results (§4.2). */
public record Prepare(PaxosKey key, Ballot ballot, List<Bytes> queries) implements Request {
    public Prepare {
        queries = List.copyOf(queries);
    }
}

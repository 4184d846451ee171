package ballot.paxos;

/**
 * The partition one Paxos instance serialises: opaque to the core (the server encodes table id and partition key).
 * Paxos registers, rounds and sessions are all per key; keys never interact.
 */
public record PaxosKey(Bytes bytes) {
    public PaxosKey {
        java.util.Objects.requireNonNull(bytes, "bytes");
    }

    public static PaxosKey of(String text) {
        return new PaxosKey(Bytes.utf8(text));
    }

    @Override
    public String toString() {
        return "key:" + bytes;
    }
}

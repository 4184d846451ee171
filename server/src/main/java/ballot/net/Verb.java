package ballot.net;

/**
 * A kind of internode request and its reply. {@code id} is what travels on the wire; it never changes meaning once
 * released (new verbs get new ids), so nodes of different versions understand each other or refuse clearly.
 */
public record Verb<Q, R>(int id, String name, Codec<Q> request, Codec<R> response) {
    public Verb {
        if (id <= 0 || id > 0xFFFF) throw new IllegalArgumentException("verb id must be in [1, 65535], was " + id);
    }

    @Override
    public String toString() {
        return name + "(" + id + ")";
    }
}

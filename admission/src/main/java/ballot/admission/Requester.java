package ballot.admission;

/**
 * Who waits for a grant. Exactly one of the two is called, once, and never under the coordinator's lock: the
 * requester may start its work, or answer its client, right there.
 */
public interface Requester {
    /** The work may start; it must {@link Grant#release()} the grant when its CPU-bound part ends. */
    void admitted(Grant grant);

    /** The work must not start: answer its client OVERLOADED. */
    void refused(Refusal why);
}

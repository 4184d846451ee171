package ballot.paxos.coordinator;

/**
 * Thrown by {@link CasRequest#evaluate} when the state holds a write stamped at or after the timestamp the update
 * would get: written there, the update would lose to it by last-write-wins although it was decided later. The
 * coordinator runs the round again with a ballot after {@code newestMicros} (docs/paxos.md §5.6).
 */
public final class BallotTooEarly extends RuntimeException {
    private final long newestMicros;

    public BallotTooEarly(long newestMicros) {
        super("state written at " + newestMicros + " µs", null, false, false);
        this.newestMicros = newestMicros;
    }

    public long newestMicros() {
        return newestMicros;
    }
}

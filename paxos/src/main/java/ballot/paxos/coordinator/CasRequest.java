package ballot.paxos.coordinator;

import ballot.paxos.Bytes;
import java.util.Optional;

/**
 * One compare-and-set on one partition, as the core sees it: what to read, and a deterministic decision on what it
 * read. A SERIAL read is a request whose decision is always "no update" ({@link #read}).
 *
 * <p>{@link #evaluate} may run more than once for one request (a round can be retried while nothing it proposed can
 * take effect) and must give the same answer for the same input.
 */
public interface CasRequest {
    /** The read the condition needs (opaque; the replicas' {@link ballot.paxos.spi.PaxosStore} interprets it). */
    Bytes query();

    /**
     * The update to propose if the condition holds on {@code current} (the merged, current result of
     * {@link #query()}), or empty if it does not. {@code timestampMicros} is the write timestamp the update will get,
     * and "now" for expiring data. Throws {@link BallotTooEarly} if {@code current} was written at or after it.
     */
    Optional<Bytes> evaluate(Bytes current, long timestampMicros);

    /** A linearizable (SERIAL) read of {@code query}: answered {@link CasResult.Outcome#NOT_APPLIED} with the state. */
    static CasRequest read(Bytes query) {
        return new CasRequest() {
            @Override
            public Bytes query() {
                return query;
            }

            @Override
            public Optional<Bytes> evaluate(Bytes current, long timestampMicros) {
                return Optional.empty();
            }

            @Override
            public String toString() {
                return "read(" + query + ")";
            }
        };
    }
}

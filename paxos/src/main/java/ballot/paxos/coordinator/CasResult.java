package ballot.paxos.coordinator;

import ballot.paxos.Bytes;

/**
 * The final answer to one request (docs/paxos.md §4.10).
 *
 * @param current the state the condition was evaluated on (null when there is none: UNAVAILABLE, timeouts)
 * @param roundTrips network round trips this request waited for, across retries; a phase answered by the
 *     coordinator's own replica alone does not count (for the rounds-per-LWT metric)
 * @param contentions how many times it backed off because another ballot won
 * @param fastPath whether it was decided by a round that used a held promise (no prepare)
 */
public record CasResult(Outcome outcome, Bytes current, int roundTrips, int contentions, boolean fastPath) {
    public enum Outcome {
        /** The update was decided and reached the commit level. */
        APPLIED,
        /** The condition did not hold (or it was a read); {@code current} is linearizable. */
        NOT_APPLIED,
        /** The update was decided (it will be applied) but did not reach the commit level in time: WriteTimeout(SIMPLE). */
        COMMIT_TIMEOUT,
        /** A proposal carrying the update may have been accepted; it may or may not take effect: WriteTimeout(CAS). */
        UNKNOWN,
        /** Timed out before any proposal carrying it was sent: it has no effect. Reported as WriteTimeout(CAS). */
        TIMED_OUT,
        /** Fewer live replicas than a quorum (or than the commit level) when it arrived; nothing was sent. */
        UNAVAILABLE,
        /** Its partition already had the most requests allowed waiting on this coordinator; nothing was sent. */
        OVERLOADED;

        /** Whether the update is known to take effect. */
        public boolean applied() {
            return this == APPLIED || this == COMMIT_TIMEOUT;
        }
    }
}

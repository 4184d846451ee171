package ballot.paxos;

/**
 * Notable protocol events (docs/paxos.md §10): counted as metrics in production and as coverage marks in the
 * simulation, where a test asserts that each rare path actually ran.
 */
public enum Mark {
    /** A round started with a prepare (cold path). */
    PREPARE,
    /** A round used a promise held from the previous round: one round trip (§4.8). */
    FAST_PATH,
    /** A fast round whose conditions all failed proposed nothing but an empty decree to validate its reads. */
    FAST_PATH_EMPTY_VALIDATION,
    /** A held promise could not be used because the batch read something the cache does not hold. */
    FAST_PATH_QUERY_MISS,
    /** A fast proposal was rejected because a plain write changed a replica's data since it was read (§5.7). */
    FAST_PATH_STALE,
    /** A fast proposal was rejected because another coordinator prepared a later ballot. */
    FAST_PATH_SUPERSEDED,
    /** A promise arriving after the quorum was merged into the cached state. */
    LATE_PROMISE_MERGED,
    /** Promises showed an accepted, uncommitted proposal that had to be finished first. */
    PREPARE_FOUND_INCOMPLETE,
    /** Some promising replica had not applied the latest decree; the proposal carries it as predecessor. */
    PREPARE_FOUND_STALE_COMMIT,
    /** An incomplete checked proposal was proven unchoosable and skipped instead of finished (§5.7). */
    PREPARE_SKIPPED_DEAD_PROPOSAL,
    /** Conditions all failed on fresh reads: answered after one round trip, nothing proposed. */
    READ_ONLY_ROUND,
    /** A read-only round's answers waited for the latest decree to reach their commit level (docs/paxos.md §4.4). */
    READ_ONLY_AWAITS_COMMIT,
    /** More than one request was decided in one round. */
    BATCHED,
    /** A prepare or proposal lost to a later ballot; the coordinator backs off. */
    CONTENTION,
    /**
     * A replay was refused by part of the electorate while a voter it needs is down: it runs again after a back-off,
     * not at once (§4.9).
     */
    REPLAY_AWAITS_DOWN_VOTER,
    /** A rejected proposal provably reached no acceptor (or is provably unchoosable); its requests run again. */
    RETRY_WITHOUT_SIDE_EFFECTS,
    /** A proposal may have been accepted but was not decided: its fate is looked up in the next prepare. */
    PROPOSAL_IN_DOUBT,
    /** An in-doubt proposal was found and finished (or found committed): its requests are applied. */
    IN_DOUBT_RESOLVED_APPLIED,
    /** An in-doubt proposal was proven never to take effect: its requests run again. */
    IN_DOUBT_RESOLVED_NOT_APPLIED,
    /** An in-doubt proposal's fate could not be determined: its requests are answered UNKNOWN. */
    IN_DOUBT_UNRESOLVED,
    /** Our replica voted first, so another replica's acceptance decided the proposal and applied it at once (§4.6.1). */
    DECIDED_ON_ACCEPT,
    /** A decree's commit travelled on the next proposal instead of its own message. */
    COMMIT_PIGGYBACKED,
    /** Every replica applied a decree; its entries are pruned from the registers by the next proposal (§4.7). */
    PRUNE,
    /** A message was sent again because a reply had not arrived. */
    RETRANSMIT,
    /** A request was answered UNAVAILABLE, on arrival or before a later attempt, when nothing of it can take effect. */
    UNAVAILABLE,
    /** A request was answered OVERLOADED before anything was sent: its partition's queue was full. */
    OVERLOADED,
    /** A request timed out before any proposal carrying it was sent. */
    TIMED_OUT,
    /** A request timed out after a proposal carrying it may have been accepted. */
    UNKNOWN,
    /** A decided request's commit did not reach its commit level in time. */
    COMMIT_TIMEOUT,
    /** The state a round read was written after its ballot's timestamp: the round ran again with a later ballot. */
    BALLOT_TOO_EARLY,
    /** An acceptor request waited for its partition's persist in flight before its step ran (§4.12). */
    ACCEPTOR_WAITED_FOR_PERSIST,
    /**
     * Our replica refused a proposal of a ballot it had promised in memory only: the other replicas were never sent it,
     * and its requests run again (§4.2.5).
     */
    OWN_REFUSAL_WITHHELD_PROPOSAL,
    /**
     * Our replica did not vote within a retransmission interval on a proposal of a ballot it had promised in memory
     * only: the other replicas were never sent it, and it stays in doubt until the next prepare (§4.2.5).
     */
    OWN_VOTE_OVERDUE,
    /** More deferred promises waited than allowed: the oldest was written out on its own (§4.2.5). */
    DEFERRED_PROMISE_WRITTEN_OUT,
    /** A partition's registers were deleted: nothing could need them any more (§4.13). */
    PURGED,
    /** A replica that joined after the partition had history answered none of its prepare or proposal (§4.14). */
    ABSTAINED
}

package ballot.txn;

/**
 * Notable protocol events: metrics in production, coverage marks in the simulation, where a test asserts that each
 * rare path ran (docs/txn.md §12).
 */
public enum Mark {
    /** Every intent placed and the record staging: committed in one round of parallel CAS (§4.2). */
    PARALLEL_COMMIT,
    /** A single-partition transaction decided by one CAS (§3.8). */
    ONE_PHASE,
    /** An operation refused; the transaction aborts with its reason (§4.4). */
    REFUSED,
    /** A placement met an older transaction's intent and died; the next epoch waits until that one is decided (§5.2). */
    DIED,
    /** A placement met a free partition reserved by an older waiter and died (§5.1). */
    DIED_AT_RESERVATION,
    /** A placement met a younger transaction's intent and waits (§5). */
    WAITED,
    /** An epoch was dead and the transaction restarted with the next one (§4.5). */
    RESTARTED,
    /** A step was refused because its attempt's deadline had passed (§7). */
    EXPIRED,
    /** The record showed another coordinator of the same transaction at a later epoch; this one joined it (§4.6). */
    JOINED,
    /** A placement found its attempt already applied (a duplicate or a retry after the commit). */
    ALREADY_APPLIED,
    /** A placement carried the decision about a blocking intent and resolved it in the same CAS (§5). */
    RESOLVED_ON_PLACEMENT,
    /** A placement of an already released epoch landed late; its intent was released when its reply came (§4.5). */
    LATE_PLACEMENT_RELEASED,
    /** A CAS result was lost; the step was sent again (§4.7). */
    STEP_UNKNOWN,
    /** Recovery started on an attempt past its deadline (§6.2). */
    RECOVERY,
    /** Recovery found every intent present and committed the attempt. */
    RECOVERY_COMMITTED,
    /** Recovery fenced a missing intent (or a missing record) and aborted the attempt. */
    RECOVERY_ABORTED,
    /** A decided record past its retention window was dropped, its participants clear of it (§2). */
    RECORD_DROPPED,
    /** A settled commit's record was left to the sweep: too many retirements were already waiting (§6.3). */
    RETIREMENT_LEFT_TO_SWEEP,
    /** The client was answered UNKNOWN at its deadline (§4.8). */
    TIMED_OUT,
    /** A committed attempt's record was not found committed by its finisher: a protocol violation. */
    COMMIT_CONTRADICTED
}

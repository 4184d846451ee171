package ballot.txn.coordinator;

/**
 * The coordinator's timings (docs/txn.md §4, §7); validated by {@link TxnCoordinator.Builder}.
 *
 * @param epochLifetimeMicros a restarted epoch's deadline is this far after its restart
 * @param retryNanos delay before a step whose result was lost is sent again
 * @param backoffNanos base of the random back-off before a restart or another placement behind a waiting intent
 * @param backoffMaxNanos cap of that back-off
 * @param backgroundNanos how long the background finish, recovery and sweep keep resending lost steps
 * @param reservationMicros how long a waiting placement reserves its partition; each poll renews it (§5.1)
 * @param retentionMicros how long a decided record is kept after its deadline for client retries (§2)
 * @param sweptAfterMicros how long after its deadline the sweep retires a decided record ({@link TxnCoordinator#sweptAfter})
 */
record Options(long epochLifetimeMicros, long retryNanos, long backoffNanos, long backoffMaxNanos, long backgroundNanos,
        long reservationMicros, long retentionMicros, long sweptAfterMicros) {}

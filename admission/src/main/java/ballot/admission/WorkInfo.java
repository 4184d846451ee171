package ballot.admission;

/**
 * What the queue knows of a piece of work.
 *
 * @param tenant whose work it is (a keyspace): tenants share grants fairly
 * @param priority within the tenant, higher first
 * @param startNanos when the work, or the transaction it is a step of, started: the order within a priority
 * @param deadlineNanos after this the work is never started (its client has given up)
 * @param writeBytes what it writes to storage, about; 0 if it only reads (the tokens it takes from a {@link TokenGranter})
 */
public record WorkInfo(String tenant, Priority priority, long startNanos, long deadlineNanos, long writeBytes) {
    public WorkInfo {
        if (tenant == null) throw new IllegalArgumentException("a work's tenant is required");
        if (priority == null) throw new IllegalArgumentException("a work's priority is required");
        if (writeBytes < 0) throw new IllegalArgumentException("a work's write bytes cannot be negative, was " + writeBytes);
    }
}

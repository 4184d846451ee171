package ballot.admission;

/**
 * What the queue knows of a piece of work.
 *
 * @param tenant whose work it is (a keyspace): tenants share grants fairly
 * @param priority within the tenant, higher first
 * @param startNanos when the work, or the transaction it is a step of, started: the order within a priority
 * @param deadlineNanos after this the work is never started (its client has given up)
 */
public record WorkInfo(String tenant, Priority priority, long startNanos, long deadlineNanos) {
    public WorkInfo {
        if (tenant == null) throw new IllegalArgumentException("a work's tenant is required");
        if (priority == null) throw new IllegalArgumentException("a work's priority is required");
    }
}

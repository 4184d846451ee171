package ballot.cql.data;

/**
 * Partitions with {@code start <= token <= end}, or, when {@code startAfter} is set, those after that partition (and
 * still within {@code end}): how a paged scan resumes.
 */
public record TokenRange(long start, PartitionKey startAfter, long end) {
    public static final TokenRange ALL = new TokenRange(Long.MIN_VALUE, null, Long.MAX_VALUE);

    public TokenRange resumeAfter(PartitionKey key) {
        return new TokenRange(key.token(), key, end);
    }

    /** Whether the partition is in the range: its token within [start, end] and, when resuming, after {@code startAfter}. */
    public boolean contains(PartitionKey key) {
        return key.token() >= start && key.token() <= end && (startAfter == null || key.compareTo(startAfter) > 0);
    }

    public boolean isEmpty() {
        return start > end;
    }
}

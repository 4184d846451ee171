package ballot.cql.data;

import java.nio.ByteBuffer;

/** The rows of a partition between two clustering bounds, in clustering order. */
public record Slice(ClusteringBound start, ClusteringBound end) {
    /**
     * True if {@code clustering} lies within this slice's bounds; {@code prefixOrder} compares over the common length
     * (the table's {@code compareClusteringPrefix}).
     */
    public boolean contains(ByteBuffer[] clustering, java.util.Comparator<ByteBuffer[]> prefixOrder) {
        return !startsAfter(clustering, prefixOrder) && !endsBefore(clustering, prefixOrder);
    }

    /** True if the slice begins after {@code clustering}. */
    public boolean startsAfter(ByteBuffer[] clustering, java.util.Comparator<ByteBuffer[]> prefixOrder) {
        if (start.isUnbounded()) return false;
        int c = prefixOrder.compare(clustering, start.prefix());
        return c < 0 || c == 0 && !start.inclusive();
    }

    /** True if the slice ends before {@code clustering}. */
    public boolean endsBefore(ByteBuffer[] clustering, java.util.Comparator<ByteBuffer[]> prefixOrder) {
        if (end.isUnbounded()) return false;
        int c = prefixOrder.compare(clustering, end.prefix());
        return c > 0 || c == 0 && !end.inclusive();
    }

    public static final Slice ALL = new Slice(ClusteringBound.UNBOUNDED, ClusteringBound.UNBOUNDED);

    /** Exactly the rows whose clustering starts with {@code prefix} (all of them for a full clustering). */
    public static Slice of(ByteBuffer... prefix) {
        ClusteringBound bound = new ClusteringBound(prefix.clone(), true);
        return new Slice(bound, bound);
    }

    public boolean selectsAll() {
        return start.isUnbounded() && end.isUnbounded();
    }
}

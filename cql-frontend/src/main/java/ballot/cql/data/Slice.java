package ballot.cql.data;

import java.nio.ByteBuffer;

/** The rows of a partition between two clustering bounds, in clustering order. */
public record Slice(ClusteringBound start, ClusteringBound end) {
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

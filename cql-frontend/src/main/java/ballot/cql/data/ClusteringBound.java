package ballot.cql.data;

import java.nio.ByteBuffer;

/**
 * One end of a clustering slice: a prefix of clustering values (possibly empty = unbounded) and whether rows whose
 * clustering starts with the prefix are included. Bounds are in the table's clustering order, so for a DESC column
 * "greater" means "earlier".
 */
public record ClusteringBound(ByteBuffer[] prefix, boolean inclusive) {
    public static final ClusteringBound UNBOUNDED = new ClusteringBound(new ByteBuffer[0], true);

    public boolean isUnbounded() {
        return prefix.length == 0;
    }

    public int size() {
        return prefix.length;
    }
}

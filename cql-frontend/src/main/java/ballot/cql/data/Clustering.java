package ballot.cql.data;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The clustering values of one row, in clustering-column order. Empty for a table without clustering columns. */
public final class Clustering {
    public static final Clustering EMPTY = new Clustering(new ByteBuffer[0]);
    /** The clustering of a partition's static row; never stored with a clustering key. */
    public static final Clustering STATIC = new Clustering(new ByteBuffer[0]);

    private final ByteBuffer[] values;

    private Clustering(ByteBuffer[] values) {
        this.values = values;
    }

    public static Clustering of(ByteBuffer... values) {
        return values.length == 0 ? EMPTY : new Clustering(values.clone());
    }

    public int size() {
        return values.length;
    }

    public ByteBuffer get(int i) {
        return values[i].duplicate();
    }

    public ByteBuffer[] values() {
        return values.clone();
    }

    public boolean isStatic() {
        return this == STATIC;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Clustering other && isStatic() == other.isStatic() && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return isStatic() ? "STATIC" : "Clustering(" + values.length + " values)";
    }
}

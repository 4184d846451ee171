package ballot.cql.index;

import java.util.Arrays;

/**
 * What a query asks of one index: the terms between {@code lower} and {@code upper} (null = unbounded), compared as
 * unsigned bytes of their order-preserving encoding ({@link IndexTerms}). Equality, CONTAINS, CONTAINS KEY and map
 * entries are the range of one term. Replicas select candidates with it and check them with {@link #matches}; the
 * query applies the same check to the rows it returns.
 */
public record IndexExpression(String index, byte[] lower, boolean lowerInclusive, byte[] upper, boolean upperInclusive) {
    public static IndexExpression equalTo(String index, byte[] term) {
        return new IndexExpression(index, term, true, term, true);
    }

    public boolean isEquality() {
        return lower != null && upper != null && lowerInclusive && upperInclusive && Arrays.equals(lower, upper);
    }

    public boolean matches(byte[] term) {
        if (lower != null) {
            int c = Arrays.compareUnsigned(term, lower);
            if (c < 0 || c == 0 && !lowerInclusive) return false;
        }
        if (upper != null) {
            int c = Arrays.compareUnsigned(term, upper);
            return c < 0 || c == 0 && upperInclusive;
        }
        return true;
    }

    /** Whether any of {@code terms} matches. */
    public boolean matchesAny(Iterable<byte[]> terms) {
        for (byte[] term : terms) if (matches(term)) return true;
        return false;
    }
}

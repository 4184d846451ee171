package ballot.cql.statement;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Cell paths of list elements: {@code order(8, sign-flipped) · index(4) · unique(4)}, whose unsigned byte order is list
 * order. Appends use the current time as order, prepends its negation, so later appends go last and later prepends
 * go first; the index keeps the elements of one operation in order; the unique part keeps concurrent operations apart.
 */
final class ListPaths {
    private static final AtomicInteger UNIQUE = new AtomicInteger();

    private ListPaths() {}

    static ByteBuffer append(long nowMicros, int index) {
        return path(nowMicros, index);
    }

    static ByteBuffer prepend(long nowMicros, int index) {
        return path(-nowMicros, index);
    }

    private static ByteBuffer path(long order, int index) {
        return ByteBuffer.allocate(16)
                .putLong(0, order ^ Long.MIN_VALUE)
                .putInt(8, index)
                .putInt(12, UNIQUE.getAndIncrement());
    }
}

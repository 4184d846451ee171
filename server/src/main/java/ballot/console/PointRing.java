package ballot.console;

import java.util.ArrayList;
import java.util.List;

/** The latest {@code capacity} points, oldest first; an added point past that replaces the oldest. Thread-safe. */
final class PointRing {
    private final ConsolePoint[] points;
    /** Where the next point goes; {@code size} points end just before it. */
    private int next;
    private int size;

    PointRing(int capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("point ring capacity " + capacity + "; it must be positive");
        points = new ConsolePoint[capacity];
    }

    synchronized void add(ConsolePoint point) {
        points[next] = point;
        next = (next + 1) % points.length;
        size = Math.min(size + 1, points.length);
    }

    synchronized List<ConsolePoint> points() {
        List<ConsolePoint> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) out.add(points[Math.floorMod(next - size + i, points.length)]);
        return out;
    }
}

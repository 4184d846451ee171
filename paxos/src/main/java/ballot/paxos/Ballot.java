package ballot.paxos;

/**
 * A Paxos ballot: totally ordered by ({@code micros}, {@code counter}, {@code node}, {@code incarnation}) and unique
 * because no node issues the same (micros, counter) twice in one incarnation (docs/paxos.md §4.1).
 *
 * <p>{@code micros} is wall-clock time in microseconds and doubles as the write timestamp of the decree proposed
 * with this ballot: entry {@code i} of a decree is applied at {@code micros + i} (§4.6, §5.6).
 */
public record Ballot(long micros, int counter, int node, int incarnation) implements Comparable<Ballot> {
    /** Lower than every ballot a generator issues; the initial value of every register. */
    public static final Ballot ZERO = new Ballot(0, 0, 0, 0);

    public Ballot {
        if (micros < 0) throw new IllegalArgumentException("ballot micros is " + micros + "; must be >= 0");
    }

    @Override
    public int compareTo(Ballot o) {
        int c = Long.compare(micros, o.micros);
        if (c != 0) return c;
        c = Integer.compare(counter, o.counter);
        if (c != 0) return c;
        c = Integer.compare(node, o.node);
        if (c != 0) return c;
        return Integer.compare(incarnation, o.incarnation);
    }

    public boolean isAfter(Ballot o) {
        return compareTo(o) > 0;
    }

    public boolean isBefore(Ballot o) {
        return compareTo(o) < 0;
    }

    public boolean isZero() {
        return equals(ZERO);
    }

    public static Ballot max(Ballot a, Ballot b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public String toString() {
        return micros + "." + counter + "@" + node + (incarnation == 0 ? "" : "/" + incarnation);
    }
}

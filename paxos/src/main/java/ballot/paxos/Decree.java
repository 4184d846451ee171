package ballot.paxos;

import java.util.List;

/**
 * A chosen value of the partition's register chain: the entries (opaque updates, applied in order) decided with
 * {@code ballot}. {@code origin} is the ballot the entries were first proposed with; a re-proposal keeps it, so a
 * coordinator can recognise its own entries after a replay (docs/paxos.md §4.10).
 *
 * <p>{@code entries == null} means pruned: the decree has been applied at every replica (§4.7).
 */
public record Decree(Ballot ballot, Ballot origin, List<Bytes> entries) {
    /** The committed register of a partition that never had a decree. */
    public static final Decree NONE = new Decree(Ballot.ZERO, Ballot.ZERO, List.of());

    public Decree {
        java.util.Objects.requireNonNull(ballot, "ballot");
        java.util.Objects.requireNonNull(origin, "origin");
        if (entries != null) entries = List.copyOf(entries);
        if (origin.isAfter(ballot)) throw new IllegalArgumentException("decree origin " + origin + " after its ballot " + ballot);
    }

    public boolean isPruned() {
        return entries == null;
    }

    public boolean isEmpty() {
        return entries != null && entries.isEmpty();
    }

    public Decree pruned() {
        return entries == null ? this : new Decree(ballot, origin, null);
    }

    /** The timestamp entry {@code index} is applied with: the ballot's micros plus its position. */
    public long timestampMicros(int index) {
        return ballot.micros() + index;
    }

    /** The last microsecond this decree's entries occupy (§5.6): empty decrees still take one. */
    public long spanEndMicros() {
        return spanEnd(ballot, entries == null ? 1 : entries.size());
    }

    static long spanEnd(Ballot ballot, int entries) {
        return ballot.micros() + Math.max(1, entries) - 1;
    }

    @Override
    public String toString() {
        return "Decree{" + ballot + (origin.equals(ballot) ? "" : " origin " + origin)
                + (entries == null ? " pruned" : " " + entries.size() + " entries") + "}";
    }
}

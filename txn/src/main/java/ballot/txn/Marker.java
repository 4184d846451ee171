package ballot.txn;

import java.util.Objects;

/**
 * What a partition remembers of a transaction that holds no intent there, for its highest epoch (docs/txn.md §2):
 * its intent was rolled forward ({@code APPLIED}), or it may never place one ({@code FENCED}, with the refusal's
 * reason if an operation refused). Dropped after {@code deadlineMicros}, when time alone refuses the attempt.
 */
public record Marker(int epoch, Kind kind, String reason, long deadlineMicros) {
    public enum Kind { APPLIED, FENCED }

    public Marker {
        Objects.requireNonNull(kind, "kind");
        if (reason != null && kind != Kind.FENCED) throw new IllegalStateException("an applied marker has no reason");
    }
}

package ballot.txn.step;

import ballot.txn.Intent;
import ballot.txn.Record;
import java.util.List;

/** What one step answers (docs/txn.md §3), or {@link Unknown} when the CAS's result was lost. */
public sealed interface Reply {
    /** The outcome is unknown: the step may have taken effect, or may still take effect later. */
    Unknown UNKNOWN = new Unknown();

    record Unknown() implements Reply {}

    /** The transaction's record after the step, or null if there is none. */
    record RecordSeen(Record record) implements Reply {}

    /** Whether a fenced attempt's intent is at the partition (§3.4); {@code ABSENT} means it never will be. */
    record Presence(boolean present) implements Reply {}

    /** Whether a resolution changed the partition (§3.6). */
    record Resolved(boolean changed) implements Reply {}

    /** Whether a participant is clear of a decided transaction for good (§2, {@link Forget}). */
    record Cleared(boolean clear) implements Reply {}

    /**
     * A partition's intent (or null), the records homed there that are still staging, and the decided ones past their
     * retention window, which may be dropped once their participants are clear (§3.7, §2).
     */
    record Inspection<V>(Intent<V> intent, List<Record> staging, List<Record> retired) implements Reply {
        public Inspection {
            staging = List.copyOf(staging);
            retired = List.copyOf(retired);
        }
    }

    /**
     * The answer to {@link Place} or {@link OnePhase} (§3.3, §3.8).
     *
     * @param seen the committed value the operation read ({@code PLACED}, {@code REFUSED}, {@code DECIDED} when evaluated)
     * @param blocker the other transaction's intent ({@code WAIT}, {@code DIED})
     * @param reason the refusal ({@code REFUSED}, {@code FENCED} by a refusal)
     * @param record the record ({@code DECIDED})
     */
    record Placement<V>(Outcome outcome, V seen, Intent<V> blocker, String reason, Record record) implements Reply {
        public enum Outcome {
            /** The attempt's intent is in place. */
            PLACED,
            /** The operation refused; the attempt is fenced here with the reason. */
            REFUSED,
            /** The attempt is fenced here (with the reason if an operation had refused). */
            FENCED,
            /** The attempt's intent was already rolled forward here. */
            APPLIED,
            /** A later epoch of the same transaction is here: read the record. */
            SUPERSEDED,
            /** The attempt's deadline has passed on this partition: it can never be placed. */
            EXPIRED,
            /** A younger transaction's intent is here: wait for it. */
            WAIT,
            /** An older transaction's intent is here: the attempt is fenced here and must restart. */
            DIED,
            /** 1PC only: evaluated now; {@code record} holds the outcome. */
            DECIDED
        }

        static <V> Placement<V> of(Outcome outcome) {
            return new Placement<>(outcome, null, null, null, null);
        }
    }
}

package ballot.admission;

import java.util.Locale;

/**
 * How urgent a piece of work is; higher priorities are always admitted first (docs/admission.md). A lower one may
 * starve while higher ones use every slot: that is the point.
 */
public enum Priority {
    /** Internal work others wait on: gossip, schema, Paxos and replication replies. */
    SYSTEM,
    /** A step of a transaction that holds intents: delaying it holds up every transaction waiting on those intents. */
    INTENT_HOLDER,
    /** LWTs and plain requests. */
    NORMAL,
    /** Hints, sweeps, prunes, index builds, and requests that lowered their own priority. */
    BACKGROUND;

    /** The priority named {@code name} (any case), as a client or a setting gives it; null if there is none. */
    public static Priority named(String name) {
        for (Priority p : values()) if (p.name().equalsIgnoreCase(name.strip())) return p;
        return null;
    }

    /** The name metrics and settings use: {@code intent_holder}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

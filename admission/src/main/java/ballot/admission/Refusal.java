package ballot.admission;

import java.util.Locale;

/** Why work was refused rather than started; each is answered OVERLOADED. */
public enum Refusal {
    /** The queue held {@link AdmissionSettings#queueMax()} waiting works and none of lower priority to give way. */
    QUEUE_FULL,
    /** Its deadline passed before it could start. */
    DEADLINE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

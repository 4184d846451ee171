package ballot.cql.spi;

import java.util.function.Supplier;

/**
 * The admission of the request this thread is working on, set around the synchronous part of an admitted request's
 * work ({@link #call}), so that the one part of it that may wait without using the CPU (a compare-and-set queued on
 * its partition) can pause it. It is taken once: a second taker, or work on another thread, gets none and pauses
 * nothing, so no two waits can pause one admission.
 */
public final class CurrentAdmission {
    private static final ThreadLocal<RequestAdmission.Admitted> CURRENT = new ThreadLocal<>();

    private CurrentAdmission() {}

    /** This thread's request's admission, or null if there is none or it was taken already. */
    public static RequestAdmission.Admitted take() {
        RequestAdmission.Admitted admitted = CURRENT.get();
        if (admitted != null) CURRENT.remove();
        return admitted;
    }

    /** Runs {@code work} with {@code admitted} as this thread's request's admission, then forgets it. */
    public static <T> T call(RequestAdmission.Admitted admitted, Supplier<T> work) {
        CURRENT.set(admitted);
        try {
            return work.get();
        } finally {
            CURRENT.remove();
        }
    }
}

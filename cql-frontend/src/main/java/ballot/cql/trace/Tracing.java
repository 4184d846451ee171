package ballot.cql.trace;

import java.util.function.Supplier;

/**
 * The trace of the request this thread is working on, if it is traced. Set around the synchronous part of a traced
 * request's work ({@link #call}); code that hands work to another thread captures {@link #current()} and sets it
 * there again. Untraced requests never set it, so for them tracing costs one thread-local read per check.
 */
public final class Tracing {
    private static final ThreadLocal<Trace> CURRENT = new ThreadLocal<>();

    private Tracing() {}

    /** The trace of this thread's request, or null when it is not traced. */
    public static Trace current() {
        return CURRENT.get();
    }

    /** Records {@code activity} in this thread's trace, if any. */
    public static void event(String activity) {
        Trace trace = CURRENT.get();
        if (trace != null) trace.event(activity);
    }

    /** Runs {@code work} with {@code trace} as this thread's trace (none if null), then restores the previous one. */
    public static <T> T call(Trace trace, Supplier<T> work) {
        Trace previous = CURRENT.get();
        if (previous == trace) return work.get(); // the untraced work of an untraced thread touches nothing more
        CURRENT.set(trace);
        try {
            return work.get();
        } finally {
            if (previous == null) CURRENT.remove();
            else CURRENT.set(previous);
        }
    }
}

package ballot.net;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/** Lets a repeated log line through at most once per period per key (a peer and a reason), so faults that repeat every second do not flood the log. */
public final class LogThrottle {
    private final long periodNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Long> last = new ConcurrentHashMap<>();

    public LogThrottle(long periodNanos, LongSupplier nanoTime) {
        this.periodNanos = periodNanos;
        this.nanoTime = nanoTime;
    }

    /** True if a line for {@code key} may be logged now; records it. */
    public boolean allow(String key) {
        long now = nanoTime.getAsLong();
        boolean[] allowed = {false};
        last.compute(key, (k, previous) -> {
            if (previous == null || now - previous >= periodNanos) {
                allowed[0] = true;
                return now;
            }
            return previous;
        });
        if (last.size() > 10_000) last.clear();
        return allowed[0];
    }
}

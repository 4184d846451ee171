package ballot.console;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the node's meters every {@link #PERIOD_MILLIS} and keeps the last {@link #POINTS} points of the console's
 * graphs: a bounded buffer, filled by one thread of its own, so neither the scrape path nor any request does work for
 * the console. {@link #sample} takes the time as input (tests call it with their own clock); {@link #start} calls it
 * on the system clocks until {@link #close}.
 */
final class MeterSampler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MeterSampler.class);
    static final long PERIOD_MILLIS = 1_000;
    /** Five minutes of points. */
    static final int POINTS = 300;

    private final MeterRegistry registry;
    private final PointRing ring;
    private ScheduledExecutorService timer;
    /** Touched only by the sampling thread (or a test's). */
    private MeterReading last;
    private long lastNanos;
    /** Failed samples, and when one was last logged: touched only by the sampling thread. */
    private long failures;
    private long failureLoggedNanos;

    MeterSampler(MeterRegistry registry, int points) {
        this.registry = registry;
        this.ring = new PointRing(points);
    }

    /** Reads the meters at {@code nowNanos} (monotonic; rates use it) and {@code wallMillis} (the point's time). */
    void sample(long nowNanos, long wallMillis) {
        MeterReading reading = MeterReading.of(registry);
        if (last != null) ring.add(ConsolePoint.between(last, reading, nowNanos - lastNanos, wallMillis));
        last = reading;
        lastNanos = nowNanos;
    }

    List<ConsolePoint> points() {
        return ring.points();
    }

    void start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "console-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            try {
                sample(now, System.currentTimeMillis());
            } catch (RuntimeException e) {
                // A bug, not a condition: the next tick tries again, and the log says so once a minute at most.
                if (failures++ == 0 || now - failureLoggedNanos >= TimeUnit.MINUTES.toNanos(1)) {
                    failureLoggedNanos = now;
                    log.error("console sampling failed failures={}; the graphs miss these points", failures, e);
                }
            }
        }, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Stops sampling; returns once no sample is being taken, so the registry may close next. */
    @Override
    public void close() {
        if (timer == null) return;
        timer.shutdown();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) log.warn("console sampler still running at close");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

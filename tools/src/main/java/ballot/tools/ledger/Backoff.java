package ballot.tools.ledger;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Waits between attempts while another client holds what a transfer needs, or (batch) moved a balance it read: 1 to
 * 10 ms at first (random, so clients that met do not retry in step), doubling each time up to the cap. lightest's cap
 * is 10 s; the lwt ledger caps it well below the claim TTL, so a waiting transfer's own claim does not lapse while it
 * sleeps.
 */
final class Backoff {
    private final long capNanos;
    private long nextNanos;

    Backoff(Duration cap) {
        this.capNanos = cap.toNanos();
        this.nextNanos = Math.min(capNanos, ThreadLocalRandom.current().nextLong(1_000_000, 10_000_001));
    }

    void sleep() throws InterruptedException {
        Thread.sleep(nextNanos / 1_000_000, (int) (nextNanos % 1_000_000));
        nextNanos = Math.min(capNanos, nextNanos * 2);
    }
}

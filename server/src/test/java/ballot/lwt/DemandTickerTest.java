package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DemandTickerTest {
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final AtomicBoolean awake = new AtomicBoolean();
    private final AtomicInteger ticks = new AtomicInteger();
    private final DemandTicker ticker = new DemandTicker(timer, Duration.ofMillis(1), awake::get, ticks::incrementAndGet);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void ticksWhileAwakeAndStopsWhenQuiet() throws Exception {
        awake.set(true);
        ticker.wake();
        waitFor(() -> ticks.get() >= 5);
        awake.set(false);
        Thread.sleep(20); // at most one tick was already under way when the coordinators went quiet
        int afterQuiet = ticks.get();
        Thread.sleep(50);
        assertThat(ticks.get()).as("no tick while everything is quiet").isEqualTo(afterQuiet);
        assertThat(timer.getQueue()).as("nothing left scheduled: an idle node makes no wakeups").isEmpty();

        awake.set(true);
        ticker.wake();
        waitFor(() -> ticks.get() >= afterQuiet + 5);
    }

    /**
     * The race: a tick reads "nothing awake", then a lane publishes work and wakes the ticker while the tick is still
     * marked scheduled (so that wake does nothing), then the tick stands down. Here the lane's wake happens inside
     * the tick's read, exactly in that window; the tick must look again and keep ticking.
     */
    @Test
    void aWakeThatRacesWithTheLastQuietTickIsNotLost() throws Exception {
        AtomicBoolean raced = new AtomicBoolean();
        AtomicInteger racingTicks = new AtomicInteger();
        DemandTicker[] racing = new DemandTicker[1];
        racing[0] = new DemandTicker(timer, Duration.ofMillis(1), () -> {
            if (raced.get()) return true;
            raced.set(true);
            racing[0].wake(); // the lane's wake, while this tick is still scheduled: it must not be lost
            return false;
        }, racingTicks::incrementAndGet);
        racing[0].wake();
        waitFor(() -> racingTicks.get() >= 3);
    }

    @Test
    void wakingWhenATickIsComingSchedulesNoOther() {
        awake.set(true);
        for (int i = 0; i < 1000; i++) ticker.wake();
        assertThat(timer.getQueue()).as("one tick scheduled however many wakes").hasSizeLessThanOrEqualTo(1);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within 10 s").isNegative();
            Thread.sleep(1);
        }
    }
}

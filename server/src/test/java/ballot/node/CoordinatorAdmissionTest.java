package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.admission.AdmissionSettings;
import ballot.admission.StorageHealth;
import ballot.cql.error.OverloadedException;
import ballot.cql.spi.RequestAdmission;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admission shell's two queues, on its real ticker and clock: while the storage says it is overloaded, writes are
 * limited to what the tokens allow and the rest are refused OVERLOADED once their wait is over, while reads, which
 * take no tokens, are admitted at once; when the storage is healthy again, writes go through as before.
 */
class CoordinatorAdmissionTest {
    private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long MEGABYTE = 1L << 20;

    private final ExecutorService requests = Executors.newFixedThreadPool(2);
    private final AtomicReference<StorageHealth> health = new AtomicReference<>(StorageHealth.HEALTHY);
    private final CoordinatorAdmission admission = new CoordinatorAdmission(
            AdmissionSettings.forRequestThreads(2, 10_000, TimeUnit.MILLISECONDS.toNanos(5), TimeUnit.MILLISECONDS.toNanos(105),
                    TimeUnit.MILLISECONDS.toNanos(100)),
            MAX_WAIT_NANOS, requests, () -> 0, health::get, Set.of(), new SimpleMeterRegistry());

    @AfterEach
    void stop() {
        admission.close();
        requests.shutdownNow();
    }

    @Test
    void writesWaitForTokensWhileTheStorageIsOverloadedAndReadsDoNot() throws Exception {
        health.set(new StorageHealth(15, 20, 0, 64L << 30, false)); // level 0 past half of its slowdown trigger
        assertThat(run(8, MEGABYTE).admitted()).as("writes before the first adjustment").isEqualTo(8);
        Thread.sleep(1_200); // the adjustment: 80% of the ~8 MB/s just asked, at least the 1 MB/s floor

        CountDownLatch burstDone = new CountDownLatch(1);
        AtomicReference<Outcomes> burst = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            burst.set(run(60, MEGABYTE));
            burstDone.countDown();
        });
        writer.start();
        Outcomes reads = run(50, 0);
        assertThat(burstDone.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(reads.admitted()).as("reads, which take no tokens").isEqualTo(50);
        assertThat(burst.get().refusals()).as("60 MB of writes at a limit under 8 MB/s with 0.5 s to wait").isNotEmpty();
        assertThat(burst.get().refusals().get(0)).contains("write admission").contains("the storage is behind");
        assertThat(burst.get().admitted()).isLessThan(30);

        health.set(StorageHealth.HEALTHY);
        Thread.sleep(1_200); // writers asked for about the limit: it rises by a quarter
        Thread.sleep(1_200); // and once they ask for under half of it, it goes
        assertThat(run(60, MEGABYTE).admitted()).as("writes once the storage is healthy").isEqualTo(60);
    }

    /** What became of {@code count} requests of {@code writeBytes} each, submitted at once. */
    private Outcomes run(int count, long writeBytes) {
        AtomicInteger admitted = new AtomicInteger();
        List<String> refusals = new CopyOnWriteArrayList<>();
        CountDownLatch answered = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            admission.submit(new RequestAdmission.Work("ks", writeBytes, false, null), granted -> {
                admitted.incrementAndGet();
                granted.close();
                answered.countDown();
            }, (OverloadedException e) -> {
                refusals.add(e.getMessage());
                answered.countDown();
            });
        }
        try {
            assertThat(answered.await(10, TimeUnit.SECONDS)).as("every request answered").isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return new Outcomes(admitted.get(), List.copyOf(refusals));
    }

    private record Outcomes(int admitted, List<String> refusals) {}
}

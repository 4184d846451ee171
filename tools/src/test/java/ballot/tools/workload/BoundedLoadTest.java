package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.tools.workload.Pop.Registration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedLoadTest {
    private final List<String> progress = new CopyOnWriteArrayList<>();

    @Test
    void runsEveryOperationOnceWithAtMostWorkersOutstanding() throws InterruptedException {
        AtomicInteger outstanding = new AtomicInteger();
        AtomicInteger outstandingMax = new AtomicInteger();
        boolean[] started = new boolean[2_000];
        Executor later = CompletableFuture.delayedExecutor(200, TimeUnit.MICROSECONDS);
        LoadResult<Registration> result = new BoundedLoad(8, null, Duration.ofMillis(20), progress::add).run(2_000, Registration.class, index -> {
            started[(int) index] = true;
            outstandingMax.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
            return CompletableFuture.supplyAsync(() -> {
                outstanding.decrementAndGet();
                return index % 4 == 0 ? Registration.DUPLICATE : Registration.INSERTED;
            }, later);
        });
        assertThat(started).doesNotContain(false);
        assertThat(outstandingMax.get()).isBetween(2, 8);
        assertThat(result.completed()).isEqualTo(2_000);
        assertThat(result.outcome(Registration.INSERTED)).isEqualTo(1_500);
        assertThat(result.outcome(Registration.DUPLICATE)).isEqualTo(500);
        assertThat(result.errorCount()).isZero();
        assertThat(result.stoppedEarly()).isFalse();
        assertThat(result.latencyMicros().getTotalCount()).isEqualTo(2_000);
        assertThat(progress).last().asString().contains("100.0% 2000/2000");
    }

    @Test
    void countsErrorsByKindAndKeepsTheFirstMessages() throws InterruptedException {
        LoadResult<Registration> result = new BoundedLoad(4, null, Duration.ofHours(1), progress::add).run(100, Registration.class, index -> {
            if (index % 10 == 1) throw new IllegalStateException("bind " + index);
            if (index % 10 == 2) return CompletableFuture.failedFuture(new IllegalArgumentException("request " + index));
            return CompletableFuture.completedFuture(Registration.INSERTED);
        });
        assertThat(result.completed()).isEqualTo(100);
        assertThat(result.outcome(Registration.INSERTED)).isEqualTo(80);
        assertThat(result.errors()).containsExactly(Map.entry("IllegalArgumentException", 10L), Map.entry("IllegalStateException", 10L));
        assertThat(result.firstErrors()).hasSize(Tally.FIRST_ERRORS_MAX)
                .startsWith("IllegalStateException: bind 1", "IllegalArgumentException: request 2");
        assertThat(result.latencyMicros().getTotalCount()).isEqualTo(80);
    }

    @Test
    void listsEachErrorMessageOnce() throws InterruptedException {
        LoadResult<Registration> result = new BoundedLoad(4, null, Duration.ofHours(1), progress::add).run(50, Registration.class,
                index -> CompletableFuture.failedFuture(new IllegalStateException(index < 40 ? "timeout" : "overloaded")));
        assertThat(result.errors()).containsExactly(Map.entry("IllegalStateException", 50L));
        assertThat(result.firstErrors()).containsExactly("IllegalStateException: timeout", "IllegalStateException: overloaded");
    }

    @Test
    void stopsIssuingAtTheDeadline() throws InterruptedException {
        Executor later = CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS);
        LoadResult<Registration> result = new BoundedLoad(2, Duration.ofMillis(200), Duration.ofHours(1), progress::add)
                .run(1_000_000, Registration.class, index -> CompletableFuture.supplyAsync(() -> Registration.INSERTED, later));
        assertThat(result.stoppedEarly()).isTrue();
        assertThat(result.completed()).isBetween(2L, 100L).isEqualTo(result.outcome(Registration.INSERTED));
        assertThat(result.elapsedNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(Report.summary("pop", "accounts", result)).contains(" of 1000000 accounts", "(stopped at --duration)");
    }
}

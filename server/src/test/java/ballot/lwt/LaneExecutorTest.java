package ballot.lwt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LaneExecutorTest {
    @Test
    void backgroundTasksWaitForEveryOtherTaskAndEachClassKeepsItsOrder() throws InterruptedException {
        LaneExecutor lane = new LaneExecutor("lane-test");
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        lane.execute(() -> {
            blocked.countDown();
            await(release);
        }, false);
        assertTrue(blocked.await(5, TimeUnit.SECONDS));
        // Queued while the lane is busy, alternating classes.
        lane.execute(() -> ran.add("bulk-1"), true);
        lane.execute(() -> ran.add("live-1"), false);
        lane.execute(() -> ran.add("bulk-2"), true);
        lane.execute(() -> ran.add("live-2"), false);
        CountDownLatch done = new CountDownLatch(1);
        lane.execute(done::countDown, true);
        release.countDown();
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("live-1", "live-2", "bulk-1", "bulk-2"), ran);
        lane.stop();
    }

    @Test
    void aFailedTaskDoesNotStopTheLane() throws InterruptedException {
        LaneExecutor lane = new LaneExecutor("lane-test");
        lane.execute(() -> {
            throw new IllegalStateException("a bug in one step");
        }, false);
        CountDownLatch next = new CountDownLatch(1);
        lane.execute(next::countDown, false);
        assertTrue(next.await(5, TimeUnit.SECONDS));
        lane.stop();
    }

    @Test
    void stopRunsWhatIsQueuedAndRefusesNewTasks() throws InterruptedException {
        LaneExecutor lane = new LaneExecutor("lane-test");
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        lane.execute(() -> await(release), false);
        lane.execute(() -> ran.add("queued"), true);
        Thread stopper = new Thread(lane::stop);
        stopper.start();
        release.countDown();
        stopper.join(10_000);
        assertEquals(List.of("queued"), ran);
        assertThrows(RejectedExecutionException.class, () -> lane.execute(() -> ran.add("late"), false));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package ballot.lwt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
        awaitRefusal(lane); // stopping, with "queued" still waiting behind the blocked task
        release.countDown();
        stopper.join(10_000);
        assertFalse(stopper.isAlive(), "stop returned");
        assertEquals(List.of("queued"), ran);
    }

    @Test
    void aStopThatWaitedTooLongDropsWhatIsQueuedAndInterruptsTheRunningTask() throws InterruptedException {
        LaneExecutor lane = new LaneExecutor("lane-test", 200);
        CountDownLatch interrupted = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        lane.execute(() -> {
            try {
                new CountDownLatch(1).await(); // a task that never ends on its own
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        }, false);
        lane.execute(() -> ran.add("first"), false);
        lane.execute(() -> ran.add("background"), true);
        assertEquals(2, lane.stop(), "tasks dropped");
        assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the running task was interrupted");
        Thread.sleep(100);
        assertEquals(List.of(), ran, "nothing dropped runs after stop");
    }

    private static void awaitRefusal(LaneExecutor lane) throws InterruptedException {
        for (int i = 0; i < 1_000; i++) {
            try {
                lane.execute(() -> {}, false);
            } catch (RejectedExecutionException stopping) {
                return;
            }
            Thread.sleep(5);
        }
        fail("the lane never refused a task after stop");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

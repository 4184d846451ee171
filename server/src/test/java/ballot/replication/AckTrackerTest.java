package ballot.replication;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cluster.NodeInfo;
import ballot.cluster.NodeStatus;
import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.RequestFailureReason;
import ballot.cql.error.WriteFailureException;
import ballot.cql.error.WriteTimeoutException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** How a write's replica answers end it: the level met, WRITE_FAILURE when a replica failed it, WRITE_TIMEOUT otherwise. */
class AckTrackerTest {
    private static final Map<String, Integer> RF3 = Map.of("", 3);

    @Test
    void theLevelIsMetDespiteAFailedReplica() {
        AckTracker tracker = new AckTracker(ConsistencyLevel.QUORUM, RF3, "datacenter1", 3, WriteType.SIMPLE);
        tracker.fail(replica(1), "disk full");
        tracker.ack(replica(2));
        tracker.ack(replica(3));
        assertThat(tracker.result()).isCompleted();
    }

    @Test
    void aFailedReplicaThatLeavesTheLevelUnmetIsAWriteFailureWithItsCause() {
        AckTracker tracker = new AckTracker(ConsistencyLevel.QUORUM, RF3, "datacenter1", 3, WriteType.SIMPLE);
        tracker.ack(replica(1));
        tracker.fail(replica(2), "local storage refused the write: No space left on device");
        assertThat(tracker.result()).as("a replica has yet to answer").isNotDone();
        tracker.unanswered(replica(3));
        Throwable failure = tracker.result().handle((ok, e) -> e instanceof CompletionException c ? c.getCause() : e).join();
        assertThat(failure).isInstanceOf(WriteFailureException.class).hasMessageContaining("No space left on device")
                .hasMessageStartingWith("Operation failed - received 1 responses and 1 failures: UNKNOWN from /127.0.0.2:7000");
        WriteFailureException f = (WriteFailureException) failure;
        assertThat(f.blockFor()).isEqualTo(2);
        assertThat(f.failures()).containsExactly(Map.entry(replica(2).internode(), RequestFailureReason.UNKNOWN));
    }

    @Test
    void repliesThatNeverCameAreATimeout() {
        AckTracker tracker = new AckTracker(ConsistencyLevel.QUORUM, RF3, "datacenter1", 3, WriteType.SIMPLE);
        tracker.ack(replica(1));
        tracker.unanswered(replica(2));
        tracker.unanswered(replica(3));
        Throwable failure = tracker.result().handle((ok, e) -> e instanceof CompletionException c ? c.getCause() : e).join();
        assertThat(failure).isInstanceOf(WriteTimeoutException.class);
    }

    private static NodeInfo replica(int i) {
        InetAddress address;
        try {
            address = InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) i});
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
        return new NodeInfo(new UUID(0, i), new InetSocketAddress(address, 7000), address, 9042, "datacenter1", "rack1",
                List.of(), NodeStatus.NORMAL, UUID.randomUUID(), "5.0");
    }
}

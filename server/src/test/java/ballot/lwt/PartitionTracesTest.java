package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.trace.TraceEvent;
import ballot.cql.trace.TraceSession;
import ballot.cql.trace.TraceSink;
import ballot.cql.trace.Tracer;
import ballot.paxos.PaxosKey;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A lane's traces of the LWTs in flight: a Paxos round's steps go to every traced request on its partition. */
class PartitionTracesTest {
    private final List<TraceSession.Completed> written = new ArrayList<>();
    private final Tracer tracer = new Tracer(InetAddress.getLoopbackAddress(), 7000, new TraceSink() {
        public void completed(TraceSession.Completed session) {
            written.add(session);
        }

        public void late(TraceSession session) {
            throw new AssertionError("no event comes after its session here");
        }
    }, 0);
    private final PartitionTraces traces = new PartitionTraces();
    private final PaxosKey partition = PaxosKey.of("ks.t:1");

    @Test
    void twoTracedRequestsOnOnePartitionEachGetTheRoundsSteps() {
        TraceSession first = tracer.newSession(null, true);
        TraceSession second = tracer.newSession(null, true);
        traces.add(partition, first);
        traces.add(partition, second);
        traces.of(partition).event("Paxos prepare of ballot 1 to this node");
        traces.of(partition).reply(List.of(TraceEvent.now("Promising ballot 1", InetAddress.getLoopbackAddress(), 7001, System.nanoTime())),
                "Paxos promise of ballot 1 from /127.0.0.2:7000");

        traces.remove(partition, first);
        traces.of(partition).event("Paxos propose of ballot 1 to this node");
        traces.remove(partition, second);
        assertThat(traces.of(partition)).as("nothing in flight").isNull();

        first.finish();
        second.finish();
        assertThat(activities(0)).containsExactly("Paxos prepare of ballot 1 to this node", "Promising ballot 1",
                "Paxos promise of ballot 1 from /127.0.0.2:7000");
        assertThat(activities(1)).containsExactly("Paxos prepare of ballot 1 to this node", "Promising ballot 1",
                "Paxos promise of ballot 1 from /127.0.0.2:7000", "Paxos propose of ballot 1 to this node");
    }

    @Test
    void aStepInFlightKeepsTheTracesItStartedWith() {
        TraceSession first = tracer.newSession(null, true);
        TraceSession later = tracer.newSession(null, true);
        traces.add(partition, first);
        var sending = traces.of(partition);
        traces.add(partition, later);
        sending.event("Paxos promise of ballot 1 from /127.0.0.2:7000");
        traces.remove(partition, first);
        traces.remove(partition, later);

        first.finish();
        later.finish();
        assertThat(activities(0)).containsExactly("Paxos promise of ballot 1 from /127.0.0.2:7000");
        assertThat(activities(1)).isEmpty();
    }

    @Test
    void otherPartitionsAndUntracedLookUpsSeeNothing() {
        assertThat(traces.of(partition)).isNull();
        traces.add(partition, tracer.newSession(null, true));
        assertThat(traces.of(PaxosKey.of("ks.t:2"))).isNull();
    }

    private List<String> activities(int session) {
        return written.get(session).events().stream().map(TraceEvent::activity).toList();
    }
}

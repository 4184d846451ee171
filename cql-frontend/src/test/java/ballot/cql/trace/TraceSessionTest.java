package ballot.cql.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceSessionTest {
    /** Keeps what a node's trace writer would be given. */
    private static final class Recorded implements TraceSink {
        final List<TraceSession.Completed> completed = new ArrayList<>();
        final List<TraceSession> late = new ArrayList<>();

        @Override
        public void completed(TraceSession.Completed session) {
            completed.add(session);
        }

        @Override
        public void late(TraceSession session) {
            late.add(session);
        }
    }

    private final Recorded sink = new Recorded();
    private final Tracer tracer = new Tracer(InetAddress.getLoopbackAddress(), 7000, sink, 0);

    @Test
    void finishedSessionHasItsRequestEventsAndDurationOnce() {
        TraceSession session = tracer.newSession(new InetSocketAddress("127.0.0.9", 50000), true);
        session.begin("Execute CQL3 query", Map.of("query", "SELECT 1"));
        session.event("Parsing");
        session.event("Executing");
        session.finish();
        session.finish();

        assertThat(sink.completed).hasSize(1);
        TraceSession.Completed done = sink.completed.get(0);
        assertThat(done.sessionId()).isEqualTo(session.id());
        assertThat(done.sessionId().version()).isEqualTo(1);
        assertThat(done.client().getHostAddress()).isEqualTo("127.0.0.9");
        assertThat(done.command()).isEqualTo("QUERY");
        assertThat(done.request()).isEqualTo("Execute CQL3 query");
        assertThat(done.parameters()).containsEntry("query", "SELECT 1");
        assertThat(done.events()).extracting(TraceEvent::activity).containsExactly("Parsing", "Executing");
        assertThat(done.events().get(0).eventId().timestamp()).isLessThan(done.events().get(1).eventId().timestamp());
        assertThat(done.durationMicros()).isGreaterThanOrEqualTo(done.events().get(1).sourceElapsedMicros());
    }

    @Test
    void aReplyIsOneStepItsReplicaEventsThenItsArrival() {
        TraceSession session = tracer.newSession(null, true);
        session.reply(List.of(replicaEvent("Appending to commitlog")), "MUTATION reply received from /127.0.0.3:7000");
        session.finish();
        assertThat(sink.completed.get(0).events()).extracting(TraceEvent::activity)
                .containsExactly("Appending to commitlog", "MUTATION reply received from /127.0.0.3:7000");
        assertThat(sink.completed.get(0).events()).extracting(TraceEvent::source)
                .containsExactly(REPLICA, InetAddress.getLoopbackAddress());
    }

    /** Replies slower than the consistency level: the sink hears once, and takes them all together later. */
    @Test
    void lateRepliesAreTakenTogether() {
        TraceSession session = tracer.newSession(null, true);
        session.finish();
        session.reply(List.of(replicaEvent("Appending to commitlog")), "MUTATION reply received from /127.0.0.3:7000");
        session.reply(List.of(), "MUTATION reply received from /127.0.0.4:7000");
        assertThat(sink.completed.get(0).events()).isEmpty();
        assertThat(sink.late).containsExactly(session);

        TraceSession.Late late = session.takeLate();
        assertThat(late.sessionId()).isEqualTo(session.id());
        assertThat(late.events()).extracting(TraceEvent::activity).containsExactly("Appending to commitlog",
                "MUTATION reply received from /127.0.0.3:7000", "MUTATION reply received from /127.0.0.4:7000");
        assertThat(late.dropped()).isZero();

        session.event("READ reply received from /127.0.0.5:7000");
        assertThat(sink.late).as("events after a take are a new batch").containsExactly(session, session);
        assertThat(session.takeLate().events()).extracting(TraceEvent::activity).containsExactly("READ reply received from /127.0.0.5:7000");
        assertThat(session.takeLate().events()).isEmpty();
    }

    @Test
    void lateEventsWaitingToBeTakenAreBounded() {
        TraceSession session = tracer.newSession(null, true);
        session.finish();
        for (int i = 0; i < TraceSession.LATE_EVENTS_MAX + 5; i++) session.event("late " + i);
        TraceSession.Late late = session.takeLate();
        assertThat(late.events()).hasSize(TraceSession.LATE_EVENTS_MAX);
        assertThat(late.events().get(0).activity()).isEqualTo("late 0");
        assertThat(late.dropped()).isEqualTo(5);
        assertThat(sink.late).hasSize(1);
    }

    private static final InetAddress REPLICA = new InetSocketAddress("127.0.0.3", 7000).getAddress();

    private static TraceEvent replicaEvent(String activity) {
        return TraceEvent.now(activity, REPLICA, 7000, System.nanoTime());
    }

    @Test
    void samplesByProbabilityOnlyRequestsThatDidNotAsk() {
        assertThat(tracer.newSession(null, false)).isNull();
        assertThat(tracer.newSession(null, true).requested()).isTrue();
        tracer.probability(1);
        assertThat(tracer.newSession(null, false).requested()).as("sampled: the answer carries no tracing id").isFalse();
        assertThat(Tracer.OFF.newSession(null, true)).as("a transport without a node traces nothing").isNull();
    }
}

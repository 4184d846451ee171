package ballot.cql.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The thread's trace around work handed another trace, or none, or the one it already has. */
class TracingTest {
    private static final class Events implements Trace {
        final List<String> events = new ArrayList<>();

        @Override
        public void event(String activity) {
            events.add(activity);
        }
    }

    @Test
    void workRunsWithTheTraceItIsGivenAndTheThreadGetsItsOwnBack() {
        Events outer = new Events();
        Events inner = new Events();
        Tracing.call(outer, () -> {
            Tracing.event("outer");
            Tracing.call(inner, () -> {
                Tracing.event("inner");
                return null;
            });
            Tracing.call(null, () -> {
                Tracing.event("untraced");
                return null;
            });
            Tracing.call(outer, () -> {
                Tracing.event("outer again");
                return null;
            });
            Tracing.event("outer last");
            return null;
        });
        assertThat(outer.events).containsExactly("outer", "outer again", "outer last");
        assertThat(inner.events).containsExactly("inner");
        assertThat(Tracing.current()).as("an untraced thread again").isNull();
        assertThat(Tracing.call(null, Tracing::current)).isNull();
        assertThat(Tracing.current()).isNull();
    }
}

package ballot.node;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;

/** Filling a table quickly for a test: statements sent asynchronously, 64 at a time. */
final class Load {
    private static final int WINDOW = 64;

    private Load() {}

    /** Executes {@code statement(i)} for i in [0, count), at most 64 in flight; throws if any fails. */
    static void inWindows(CqlSession session, int count, IntFunction<Statement<?>> statement) {
        List<CompletionStage<?>> window = new ArrayList<>(WINDOW);
        for (int i = 0; i < count; i++) {
            window.add(session.executeAsync(statement.apply(i)));
            if (window.size() == WINDOW) {
                for (CompletionStage<?> w : window) w.toCompletableFuture().join();
                window.clear();
            }
        }
        for (CompletionStage<?> w : window) w.toCompletableFuture().join();
    }
}

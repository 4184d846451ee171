package ballot.cql.spi;

import ballot.cql.error.OverloadedException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * When a request's work may start (docs/admission.md). The node admits each request before any of its work runs, and
 * refuses with OVERLOADED what it cannot start before the request's deadline; an admission lasts for the request's
 * synchronous part on a request thread, not for its wait on replicas.
 */
public interface RequestAdmission {
    /** An admission held by work running now; closing it ends it. */
    interface Admitted extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * An admission right now for work of {@code tenant} (a keyspace, or empty) that the caller runs on its own thread,
     * or null if others are waiting or no slot is free: then {@link #submit} it.
     */
    Admitted tryNow(String tenant);

    /**
     * Runs {@code work} on a request thread once admitted (the admission ends when it returns), or calls
     * {@code refused} with the OVERLOADED error to answer instead. Either may happen before this returns.
     */
    void submit(String tenant, Runnable work, Consumer<OverloadedException> refused);

    /** Admits everything at once: the work runs on {@code executor}. For tests and tools that run a query processor. */
    static RequestAdmission unlimited(Executor executor) {
        return new RequestAdmission() {
            @Override
            public Admitted tryNow(String tenant) {
                return () -> {};
            }

            @Override
            public void submit(String tenant, Runnable work, Consumer<OverloadedException> refused) {
                executor.execute(work);
            }
        };
    }
}

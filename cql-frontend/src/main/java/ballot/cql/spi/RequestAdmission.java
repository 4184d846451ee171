package ballot.cql.spi;

import ballot.cql.error.OverloadedException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * When a request's work may start (docs/admission.md). The node admits each request before any of its work runs, and
 * refuses with OVERLOADED what it cannot start before the request's deadline; an admission lasts until the request is
 * answered, so the admitted requests bound the work in flight (Paxos rounds, replica writes), not only the threads.
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
     * Runs {@code work} on a request thread once admitted, or calls {@code refused} with the OVERLOADED error to answer
     * instead; either may happen before this returns. The work closes its admission when the request is answered.
     */
    void submit(String tenant, Consumer<Admitted> work, Consumer<OverloadedException> refused);

    /** Admits everything at once: the work runs on {@code executor}. For tests and tools that run a query processor. */
    static RequestAdmission unlimited(Executor executor) {
        return new RequestAdmission() {
            @Override
            public Admitted tryNow(String tenant) {
                return () -> {};
            }

            @Override
            public void submit(String tenant, Consumer<Admitted> work, Consumer<OverloadedException> refused) {
                executor.execute(() -> work.accept(() -> {}));
            }
        };
    }
}

package ballot.cql.spi;

import ballot.cql.error.OverloadedException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * When a request's work may start (docs/admission.md). The node admits each request before any of its work runs, and
 * refuses with OVERLOADED what it cannot start before the request's deadline; an admission lasts until the request is
 * answered, so the admitted requests bound the work in flight (Paxos rounds, replica writes), not only the threads.
 */
public interface RequestAdmission {
    /**
     * An admission held by work running now; closing it ends it. Work that waits without using the CPU (an LWT queued
     * behind others on its partition) pauses it, so that its slot goes to other work, and resumes it, at once and
     * without waiting, when it runs again.
     */
    interface Admitted extends AutoCloseable {
        /** The admission of work that nothing limits. */
        Admitted UNLIMITED = new Admitted() {
            @Override
            public void close() {}

            @Override
            public void pause() {}

            @Override
            public void resume() {}
        };

        @Override
        void close();

        void pause();

        void resume();
    }

    /**
     * What admission knows of a request before it runs.
     *
     * @param tenant whose work it is: the keyspace, or empty
     * @param writeBytes about what it writes to storage; 0 if it does not write
     * @param background whether the client lowered the request to background priority (its custom payload's
     *     {@code ballot.priority}, docs/admission.md)
     * @param timeout the statement's USING TIMEOUT when known before it runs (a prepared statement's, or an unprepared
     *     one whose text names TIMEOUT), else null: the request is not started after waiting that long
     */
    record Work(String tenant, long writeBytes, boolean background, Duration timeout) {}

    /**
     * An admission right now for {@code work} that the caller runs on its own thread, or null if others are waiting or
     * there is no room: then {@link #submit} it.
     */
    Admitted tryNow(Work work);

    /**
     * Runs {@code run} on a request thread once {@code work} is admitted, or calls {@code refused} with the OVERLOADED
     * error to answer instead; either may happen before this returns. It closes its admission when the request is
     * answered.
     */
    void submit(Work work, Consumer<Admitted> run, Consumer<OverloadedException> refused);

    /** Admits everything at once: the work runs on {@code executor}. For tests and tools that run a query processor. */
    static RequestAdmission unlimited(Executor executor) {
        return new RequestAdmission() {
            @Override
            public Admitted tryNow(Work work) {
                return Admitted.UNLIMITED;
            }

            @Override
            public void submit(Work work, Consumer<Admitted> run, Consumer<OverloadedException> refused) {
                executor.execute(() -> run.accept(Admitted.UNLIMITED));
            }
        };
    }
}

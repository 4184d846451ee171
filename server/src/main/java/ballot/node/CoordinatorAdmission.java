package ballot.node;

import ballot.admission.AdmissionObserver;
import ballot.admission.AdmissionSettings;
import ballot.admission.Grant;
import ballot.admission.GrantCoordinator;
import ballot.admission.Priority;
import ballot.admission.Refusal;
import ballot.admission.Requester;
import ballot.admission.WorkInfo;
import ballot.cql.error.OverloadedException;
import ballot.cql.spi.RequestAdmission;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The IO shell of admission control (docs/admission.md): admits CQL requests through a {@link GrantCoordinator}, runs
 * the admitted ones on the request executor (each holds its slot until it is answered), reports how long they waited
 * for a request thread and how long Paxos lane tasks waited for theirs (the slot signal), ticks the coordinator every
 * 10 ms, and counts every decision. Client requests are {@link Priority#NORMAL}, or {@link Priority#BACKGROUND} in
 * the keyspaces configured so; a request's deadline is its arrival plus {@code deadlineNanos}.
 */
final class CoordinatorAdmission implements RequestAdmission, AutoCloseable {
    private static final long TICK_MILLIS = 10;

    private final GrantCoordinator coordinator;
    private final Executor requests;
    private final long deadlineNanos;
    private final AdmissionSettings settings;
    private final ScheduledExecutorService ticker;
    /** Keyspaces admitted at {@link Priority#BACKGROUND} ({@code admission_background_keyspaces}). */
    private final Set<String> backgroundTenants;

    /**
     * @param internalDelay the longest wait of internal work for its thread since the last call (the Paxos lanes): with
     *     the request executor's delay, the signal the slots follow
     */
    CoordinatorAdmission(AdmissionSettings settings, long deadlineNanos, Executor requests, LongSupplier internalDelay,
            Set<String> backgroundTenants, MeterRegistry registry) {
        this.settings = settings;
        this.backgroundTenants = Set.copyOf(backgroundTenants);
        this.deadlineNanos = deadlineNanos;
        this.requests = requests;
        this.coordinator = new GrantCoordinator(settings, System::nanoTime, new Meters(registry));
        Gauge.builder("ballot.admission.slots", () -> coordinator.snapshot().slots())
                .description("Requests that may run on request threads at once (adjusted from the executor delay)").register(registry);
        Gauge.builder("ballot.admission.slots.used", () -> coordinator.snapshot().used())
                .description("Slots held by running requests").register(registry);
        for (Priority p : Priority.values()) {
            Gauge.builder("ballot.admission.waiting", () -> coordinator.snapshot().waiting(p)).tag("priority", p.label())
                    .description("Requests waiting for admission").register(registry);
            Gauge.builder("ballot.admission.lifo", () -> coordinator.snapshot().lifo(p) ? 1 : 0).tag("priority", p.label())
                    .description("1 while some tenant's queue of this priority is epoch-LIFO (its queue delay is high)").register(registry);
        }
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "admission-tick");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleWithFixedDelay(() -> {
            coordinator.executorDelay(internalDelay.getAsLong());
            coordinator.tick();
        }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public Admitted tryNow(String tenant) {
        Grant grant = coordinator.tryNow(work(tenant));
        return grant == null ? null : grant::release;
    }

    @Override
    public void submit(String tenant, Consumer<Admitted> work, Consumer<OverloadedException> refused) {
        coordinator.submit(work(tenant), new Requester() {
            @Override
            public void admitted(Grant grant) {
                long granted = System.nanoTime();
                try {
                    requests.execute(() -> {
                        coordinator.executorDelay(System.nanoTime() - granted);
                        work.accept(grant::release);
                    });
                } catch (RejectedExecutionException stopping) {
                    grant.release();
                    refused.accept(new OverloadedException("the node is stopping"));
                }
            }

            @Override
            public void refused(Refusal why) {
                refused.accept(new OverloadedException(message(why)));
            }
        });
    }

    private WorkInfo work(String tenant) {
        long now = System.nanoTime();
        return new WorkInfo(tenant, backgroundTenants.contains(tenant) ? Priority.BACKGROUND : Priority.NORMAL, now, now + deadlineNanos);
    }

    private String message(Refusal why) {
        return switch (why) {
            case QUEUE_FULL -> "Overloaded: the coordinator's admission queue is full (admission_queue_max="
                    + settings.queueMax() + "); retry later or on another node";
            case DEADLINE -> "Overloaded: the request waited " + TimeUnit.NANOSECONDS.toMillis(deadlineNanos)
                    + " ms for admission (admission_max_wait_in_ms) and was not started; retry later or on another node";
        };
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }

    /** Counts admissions by priority and refusals by reason, and times the waits. */
    private static final class Meters implements AdmissionObserver {
        private final Map<Priority, Counter> admitted = new EnumMap<>(Priority.class);
        private final Map<Refusal, Counter> refused = new EnumMap<>(Refusal.class);
        private final Timer waited;

        Meters(MeterRegistry registry) {
            for (Priority p : Priority.values())
                admitted.put(p, Counter.builder("ballot.admission.admitted").tag("priority", p.label())
                        .description("Requests admitted").register(registry));
            for (Refusal r : Refusal.values())
                refused.put(r, Counter.builder("ballot.admission.rejected").tag("reason", r.label())
                        .description("Requests refused with OVERLOADED, by reason").register(registry));
            waited = Timer.builder("ballot.admission.wait").description("Time requests waited for admission")
                    .publishPercentileHistogram().register(registry);
        }

        @Override
        public void admitted(Priority priority, long waitedNanos) {
            admitted.get(priority).increment();
            waited.record(waitedNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void refused(Priority priority, Refusal why) {
            refused.get(why).increment();
        }
    }
}

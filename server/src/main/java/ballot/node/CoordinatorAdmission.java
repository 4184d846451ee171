package ballot.node;

import ballot.admission.AdmissionObserver;
import ballot.admission.AdmissionSettings;
import ballot.admission.Grant;
import ballot.admission.GrantCoordinator;
import ballot.admission.Priority;
import ballot.admission.Refusal;
import ballot.admission.Requester;
import ballot.admission.SlotGranter;
import ballot.admission.StorageHealth;
import ballot.admission.TokenGranter;
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
import java.util.function.Supplier;

/**
 * The IO shell of admission control (docs/admission.md): admits CQL requests through two {@link GrantCoordinator}s,
 * one for storage writes ({@link TokenGranter}, following RocksDB's health, read every 100 ms) that a writing request
 * passes first, and one for the CPU ({@link SlotGranter}); runs the admitted ones on the request executor (each holds
 * its slot until it is answered), reports how long they waited for a request thread and how long Paxos lane tasks
 * waited for theirs (the slot signal), ticks both coordinators every 10 ms, and counts every decision. Client
 * requests are {@link Priority#NORMAL}, or {@link Priority#BACKGROUND} in the keyspaces configured so and when their
 * custom payload lowers them; a request's
 * deadline is its arrival plus {@code deadlineNanos}, or its USING TIMEOUT if that is shorter.
 */
final class CoordinatorAdmission implements RequestAdmission, AutoCloseable {
    private static final long TICK_MILLIS = 10;
    private static final int TICKS_PER_HEALTH_READ = 10;
    /** Writes are never limited below this (a megabyte a second), so they always move. */
    private static final long WRITE_FLOOR_BYTES_PER_SECOND = 1L << 20;

    private final SlotGranter slots;
    private final GrantCoordinator cpu;
    private final TokenGranter tokens;
    private final GrantCoordinator writes;
    private final Executor requests;
    private final long deadlineNanos;
    private final AdmissionSettings settings;
    private final ScheduledExecutorService ticker;
    /** Keyspaces admitted at {@link Priority#BACKGROUND} ({@code admission_background_keyspaces}). */
    private final Set<String> backgroundTenants;
    /**
     * The refusals of a full queue and of the default deadline, by queue (the CPU's, the storage's), built once: under
     * overload a node sends tens of thousands a second, and their text does not change. Shared: a CqlException has no
     * stack trace and no suppressed exceptions, so nothing in it changes after it is built.
     */
    private final Map<Refusal, OverloadedException> cpuRefusals = new EnumMap<>(Refusal.class);
    private final Map<Refusal, OverloadedException> writeRefusals = new EnumMap<>(Refusal.class);
    private int ticks;

    /**
     * @param internalDelay the longest wait of internal work for its thread since the last call (the Paxos lanes): with
     *     the request executor's delay, the signal the slots follow
     * @param storageHealth RocksDB's health now: the signal the write tokens follow
     */
    CoordinatorAdmission(AdmissionSettings settings, long deadlineNanos, Executor requests, LongSupplier internalDelay,
            Supplier<StorageHealth> storageHealth, Set<String> backgroundTenants, MeterRegistry registry) {
        this.settings = settings;
        this.backgroundTenants = Set.copyOf(backgroundTenants);
        this.deadlineNanos = deadlineNanos;
        this.requests = requests;
        for (Refusal why : Refusal.values()) {
            cpuRefusals.put(why, new OverloadedException(message(why, "", deadlineNanos)));
            writeRefusals.put(why, new OverloadedException(message(why, "write", deadlineNanos)));
        }
        Meters meters = new Meters(registry);
        this.slots = new SlotGranter(settings);
        this.cpu = new GrantCoordinator(settings, slots, System::nanoTime, meters);
        this.tokens = new TokenGranter(WRITE_FLOOR_BYTES_PER_SECOND, System.nanoTime());
        this.writes = new GrantCoordinator(settings, tokens, System::nanoTime, meters.forWrites(registry));
        Gauge.builder("ballot.admission.slots", slots::slots)
                .description("Requests that may run on request threads at once (adjusted from the executor delay)").register(registry);
        Gauge.builder("ballot.admission.slots.used", slots::used).description("Slots held by running requests").register(registry);
        Gauge.builder("ballot.admission.write.limit", tokens, t -> Math.max(0, t.rateBytesPerSecond())).baseUnit("bytes")
                .description("Bytes per second writes may start at while the storage is overloaded; 0 while they are not limited")
                .register(registry);
        for (Priority p : Priority.values()) {
            Gauge.builder("ballot.admission.waiting", () -> cpu.snapshot().waiting(p)).tag("priority", p.label())
                    .description("Requests waiting for admission").register(registry);
            Gauge.builder("ballot.admission.write.waiting", () -> writes.snapshot().waiting(p)).tag("priority", p.label())
                    .description("Writing requests waiting for write tokens (before they wait for a slot)").register(registry);
            Gauge.builder("ballot.admission.lifo", () -> cpu.snapshot().lifo(p) ? 1 : 0).tag("priority", p.label())
                    .description("1 while some tenant's queue of this priority is epoch-LIFO (its queue delay is high)").register(registry);
        }
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "admission-tick");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleWithFixedDelay(() -> {
            slots.executorDelay(internalDelay.getAsLong());
            if (ticks++ % TICKS_PER_HEALTH_READ == 0) tokens.health(storageHealth.get());
            writes.tick();
            cpu.tick();
        }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public Admitted tryNow(Work request) {
        WorkInfo work = work(request);
        Grant slot = cpu.tryNow(work);
        if (slot == null || work.writeBytes() == 0) return slot == null ? null : admission(slot);
        Grant written = writes.tryNow(work);
        if (written == null) {
            slot.release();
            return null;
        }
        written.release(); // its tokens are spent
        return admission(slot);
    }

    @Override
    public void submit(Work request, Consumer<Admitted> run, Consumer<OverloadedException> refused) {
        WorkInfo work = work(request);
        if (work.writeBytes() == 0) {
            submitForSlot(work, run, refused);
            return;
        }
        writes.submit(work, new Requester() {
            @Override
            public void admitted(Grant written) {
                written.release(); // its tokens are spent
                submitForSlot(work, run, refused);
            }

            @Override
            public void refused(Refusal why) {
                refused.accept(refusal(why, "write", work));
            }
        });
    }

    private void submitForSlot(WorkInfo work, Consumer<Admitted> run, Consumer<OverloadedException> refused) {
        cpu.submit(work, new Requester() {
            @Override
            public void admitted(Grant grant) {
                long granted = System.nanoTime();
                try {
                    requests.execute(() -> {
                        slots.executorDelay(System.nanoTime() - granted);
                        run.accept(admission(grant));
                    });
                } catch (RejectedExecutionException stopping) {
                    grant.release();
                    refused.accept(new OverloadedException("the node is stopping"));
                }
            }

            @Override
            public void refused(Refusal why) {
                refused.accept(refusal(why, "", work));
            }
        });
    }

    private static Admitted admission(Grant grant) {
        return new Admitted() {
            @Override
            public void close() {
                grant.release();
            }

            @Override
            public void pause() {
                grant.pause();
            }

            @Override
            public void resume() {
                grant.resume();
            }
        };
    }

    private WorkInfo work(Work request) {
        long now = System.nanoTime();
        Priority priority = request.background() || backgroundTenants.contains(request.tenant()) ? Priority.BACKGROUND : Priority.NORMAL;
        // USING TIMEOUT 0 keeps its meaning, ScyllaDB's: the statement runs and times out at once, with its kind's error.
        boolean bounded = request.timeout() != null && !request.timeout().isZero();
        long wait = bounded ? Math.min(deadlineNanos, request.timeout().toNanos()) : deadlineNanos;
        return new WorkInfo(request.tenant(), priority, now, now + wait, request.writeBytes());
    }

    /** {@code queue}: "write" for the storage's queue, empty for the CPU's. */
    private OverloadedException refusal(Refusal why, String queue, WorkInfo work) {
        long waitNanos = work.deadlineNanos() - work.startNanos();
        if (why == Refusal.DEADLINE && waitNanos != deadlineNanos) return new OverloadedException(message(why, queue, waitNanos));
        return (queue.isEmpty() ? cpuRefusals : writeRefusals).get(why);
    }

    /** The refusal's text; {@code waitNanos}: how long the work could wait for admission. */
    private String message(Refusal why, String queue, long waitNanos) {
        String which = queue.isEmpty() ? "admission" : queue + " admission";
        return switch (why) {
            case QUEUE_FULL -> "Overloaded: the coordinator's " + which + " queue is full (admission_queue_max="
                    + settings.queueMax() + "); retry later or on another node";
            case DEADLINE -> "Overloaded: the request waited " + TimeUnit.NANOSECONDS.toMillis(waitNanos) + " ms for "
                    + which + (queue.isEmpty() ? "" : " (the storage is behind: compaction, level 0 files or write stalls)")
                    + (waitNanos < deadlineNanos ? " (its USING TIMEOUT)" : " (admission_max_wait_in_ms)")
                    + " and was not started; retry later or on another node";
        };
    }

    @Override
    /** Stops the ticker and waits for a tick in progress: it reads the storage's health, which closes after this. */
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

        /**
         * For the write queue, which a writing request passes before the CPU's: its refusals count with the others,
         * its admissions only as a wait for write tokens (the CPU's admission counts the request).
         */
        AdmissionObserver forWrites(MeterRegistry registry) {
            Timer tokenWait = Timer.builder("ballot.admission.write.wait").description("Time writing requests waited for write tokens")
                    .publishPercentileHistogram().register(registry);
            return new AdmissionObserver() {
                @Override
                public void admitted(Priority priority, long waitedNanos) {
                    tokenWait.record(waitedNanos, TimeUnit.NANOSECONDS);
                }

                @Override
                public void refused(Priority priority, Refusal why) {
                    Meters.this.refused(priority, why);
                }
            };
        }
    }
}

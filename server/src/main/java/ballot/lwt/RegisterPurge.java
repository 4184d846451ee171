package ballot.lwt;

import ballot.cql.data.PartitionKey;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.Acceptor;
import ballot.paxos.acceptor.AcceptorState;
import ballot.storage.StorageEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this replica's Paxos registers bounded (docs/paxos.md §4.13): every pass raises the ballot floor to the grace
 * period before now, durably, then offers every register that nothing can need any more to its lane's acceptor,
 * which deletes it as one step of its partition; registers holding an old uncommitted proposal with entries are
 * finished first by a SERIAL read (in keyspaces of one data center), and purged on a later pass once pruned. Runs on a thread of its own, a chunk of partitions at a time.
 */
final class RegisterPurge implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RegisterPurge.class);
    /** Partitions handed to the lanes before the pass waits for them: bounds the lanes' queues. */
    private static final int CHUNK = 512;
    /** Old incomplete proposals finished per pass, at most: each costs a Paxos round. */
    private static final int FINISH_MAX = 256;

    /** What the purge needs of the node's Paxos. */
    interface Engine {
        /** Runs the acceptor's purge of {@code key} on its lane; {@code done} hears whether its registers are being deleted. */
        void purge(PaxosKey key, long floorMicros, Consumer<Boolean> done);

        /** Finishes the partition's incomplete proposal with a SERIAL read through this node's coordinator. */
        void finish(UUID tableId, PartitionKey key);
    }

    private final StorageEngine storage;
    private final RocksPaxosStore store;
    private final Engine engine;
    private final LongSupplier wallMicros;
    private final Duration grace;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "paxos-purge");
        t.setDaemon(true);
        return t;
    });

    RegisterPurge(StorageEngine storage, RocksPaxosStore store, Engine engine, LongSupplier wallMicros, Duration grace) {
        this.storage = storage;
        this.store = store;
        this.engine = engine;
        this.wallMicros = wallMicros;
        this.grace = grace;
    }

    /** A pass every quarter of the grace period (at least every minute). */
    void start() {
        long periodMillis = Math.max(1_000, Math.min(60_000, grace.toMillis() / 4));
        thread.scheduleWithFixedDelay(this::passQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void passQuietly() {
        try {
            pass();
        } catch (RuntimeException e) {
            log.warn("paxos register purge pass failed; the next pass tries again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One pass; returns how many registers it deleted. */
    int pass() throws InterruptedException {
        long started = System.nanoTime();
        long floor = wallMicros.getAsLong() - grace.toNanos() / 1000;
        store.raiseFloor(floor); // durable before anything is deleted below it
        int registers = 0, finishing = 0, purged = 0;
        List<PaxosKey> chunk = new ArrayList<>(CHUNK);
        // Page by page, so that no iterator is held while the lanes work through a chunk.
        for (List<StorageEngine.PaxosState> page = storage.paxosStates(null, CHUNK); !page.isEmpty();
                page = storage.paxosStates(page.get(page.size() - 1), CHUNK)) {
            for (StorageEngine.PaxosState s : page) {
                registers++;
                AcceptorState state = PaxosCodec.decodeState(s.state());
                if (state.accepted() != null) {
                    // An empty proposal (a fast round's validation) has nothing to finish: its registers stay (docs/paxos.md §4.13).
                    if (!state.accepted().isEmpty() && state.accepted().ballot().micros() <= floor && finishing < FINISH_MAX) {
                        finishing++;
                        engine.finish(s.tableId(), s.key());
                    }
                } else if (Acceptor.onPurge(state, floor).persist()) {
                    chunk.add(CqlValues.key(s.tableId(), s.key()));
                }
            }
            if (chunk.size() >= CHUNK) {
                purged += offer(chunk, floor);
                chunk.clear();
            }
        }
        purged += offer(chunk, floor);
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (purged > 0 || finishing > 0) {
            log.debug("paxos purge pass floor_micros={} registers={} purged={} finishing={} took={}ms", floor, registers, purged,
                    finishing, millis);
        }
        return purged;
    }

    /** Hands {@code keys} to their lanes and waits until each has been looked at. */
    private int offer(List<PaxosKey> keys, long floor) throws InterruptedException {
        CountDownLatch looked = new CountDownLatch(keys.size());
        AtomicInteger deleting = new AtomicInteger();
        for (PaxosKey key : keys) {
            try {
                engine.purge(key, floor, deleted -> {
                    if (deleted) deleting.incrementAndGet();
                    looked.countDown();
                });
            } catch (RejectedExecutionException stopping) {
                return deleting.get();
            }
        }
        looked.await(1, TimeUnit.MINUTES);
        return deleting.get();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}

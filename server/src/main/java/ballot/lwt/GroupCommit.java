package ballot.lwt;

import ballot.storage.StorageEngine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes acceptor steps durable in groups: one writer thread takes every step submitted while the previous group was
 * being synced and writes them all in one RocksDB batch, so that N steps in flight cost one fsync, whatever N
 * (docs/paxos.md §12). The batch is synced if any of its steps needs it (a promise, an acceptance, a commit that
 * clears one); a group of prunes, purges and other commits only is written without a sync (§4.15), and the next
 * synced batch covers it. With {@code paxos_sync: commitlog} nothing is synced here: each step is written at once on
 * the caller's thread (nothing to share, so no hand-off to the writer), and the storage syncs the log as it syncs
 * plain writes. Callers submit at most one step per partition at a time (the acceptor shell queues a
 * partition's next requests behind its persist, §4.12), so a group never holds two steps of one partition.
 */
final class GroupCommit implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);
    private record Step(StorageEngine.PaxosWrite write, boolean sync, Consumer<RuntimeException> done) {}

    private static final int LOADED_GROUP = 8;
    private static final long GROUP_WINDOW_NANOS = 200_000;
    private final StorageEngine storage;
    private final int groupMax;
    private final java.util.concurrent.atomic.LongAdder stepsSynced = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder stepsWritten = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder syncs = new java.util.concurrent.atomic.LongAdder();
    private final LinkedBlockingQueue<Step> pending = new LinkedBlockingQueue<>();
    /** The group writer; null with {@code paxos_sync: commitlog}, where every step is written on its caller's thread. */
    private final Thread writer;
    private volatile boolean stopped;

    /**
     * @param groupMax the most steps one synced batch holds
     * @param syncVotes whether steps that ask for a sync are synced before they are answered
     */
    GroupCommit(StorageEngine storage, int groupMax, boolean syncVotes) {
        if (groupMax < 1) throw new IllegalArgumentException("paxos group commit size is " + groupMax + "; must be >= 1");
        this.storage = storage;
        this.groupMax = groupMax;
        if (!syncVotes) {
            this.writer = null;
            return;
        }
        this.writer = new Thread(this::run, "paxos-group-commit");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Persists one step; {@code done} hears null once it is synced to disk (if {@code sync}) or written, or the failure
     * (then nothing of its group is known to be durable), on the writer thread, or on the caller's before this returns
     * when votes are not synced: it must hand over to the caller's executor and return.
     */
    void persist(StorageEngine.PaxosWrite write, boolean sync, Consumer<RuntimeException> done) {
        if (writer != null) {
            pending.add(new Step(write, sync, done));
            return;
        }
        RuntimeException failure = null;
        try {
            if (storage.persistPaxos(List.of(write), false).isEmpty()) stepsWritten.increment();
            else failure = dropped(write);
        } catch (RuntimeException e) {
            failure = e;
        }
        done.accept(failure);
    }

    /** The failure of a step whose table was dropped before it was written: it alone is not answered. */
    private static RuntimeException dropped(StorageEngine.PaxosWrite write) {
        return new StorageEngine.TableDroppedException(write.tableId());
    }

    private void run() {
        List<Step> group = new ArrayList<>();
        int previous = 0;
        while (!stopped) {
            try {
                Step first = pending.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                group.add(first);
                // Under load (the last group was large), let the group fill a little longer: fewer fsyncs per step.
                if (previous >= LOADED_GROUP) LockSupport.parkNanos(GROUP_WINDOW_NANOS);
                pending.drainTo(group, groupMax - 1);
                previous = group.size();
            } catch (InterruptedException e) {
                return; // closing: steps not yet written are lost, as messages may be
            }
            RuntimeException failure = null;
            Set<StorageEngine.PaxosWrite> refused = Set.of();
            try {
                List<StorageEngine.PaxosWrite> writes = new ArrayList<>(group.size());
                boolean sync = false;
                for (Step s : group) {
                    writes.add(s.write());
                    sync |= s.sync();
                }
                List<StorageEngine.PaxosWrite> left = storage.persistPaxos(writes, sync);
                if (!left.isEmpty()) {
                    refused = Collections.newSetFromMap(new IdentityHashMap<>());
                    refused.addAll(left);
                }
                if (sync && left.size() < writes.size()) {
                    stepsSynced.add(writes.size() - left.size());
                    syncs.increment();
                } else if (!sync) {
                    stepsWritten.add(writes.size() - left.size());
                }
            } catch (RuntimeException e) {
                failure = e;
            }
            for (Step s : group) {
                try {
                    s.done().accept(failure == null && refused.contains(s.write()) ? dropped(s.write()) : failure);
                } catch (RuntimeException e) { // a caller's bug must not stop the writer every LWT of the node needs
                    log.error("paxos persist callback failed", e);
                }
            }
            group.clear();
        }
    }

    /** Acceptor steps written in synced batches so far. */
    long stepsSynced() {
        return stepsSynced.sum();
    }

    /** Acceptor steps written in batches that needed no sync so far. */
    long stepsWritten() {
        return stepsWritten.sum();
    }

    /** Synced batches written so far (one fsync each). */
    long syncs() {
        return syncs.sum();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        if (writer == null) return;
        writer.interrupt();
        writer.join(5_000);
    }
}

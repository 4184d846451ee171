package ballot.paxos.server;

import ballot.paxos.NodeId;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.Acceptor;
import ballot.paxos.acceptor.AcceptorState;
import ballot.paxos.acceptor.DeferredPromises;
import ballot.paxos.acceptor.Step;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.spi.PaxosStore;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The acceptor of the partitions of one lane: the core's {@link ballot.paxos.acceptor.Replica} steps (load, pure
 * transition, persist, read, reply; docs/paxos.md §4.2, §4.5-§4.7), with the persist off the lane so that a synced
 * write does not hold up every other partition of the lane, and so that many partitions' persists are in flight at
 * once and share one synced batch ({@link GroupCommit}).
 *
 * <p>Per partition the steps stay strictly sequential: while a persist is in flight the partition's next requests wait
 * here in arrival order, and the reply (with a promise's read, taken after the persist) is sent before the next one
 * starts. That keeps what the Replica shell guarantees: each step sees the registers of the previous one, a
 * promise's read is taken after its promise is recorded, and nothing is acknowledged before it is on disk, except
 * the sole replica's deferred promises, which are kept in memory until the partition's next write (docs/paxos.md
 * §4.2.5, {@link DeferredPromises}). Confined to the lane's thread, which also encodes each step; the synced write
 * runs on the group commit's writer, which reports back through {@code lane}.
 */
final class LaneAcceptor {
    /** Where a request's outcome goes: its reply (null for Prune), or the failure that kept it from being answered. */
    interface Answer {
        void reply(Reply reply);

        void fail(RuntimeException failure);

        /** Completes {@code reply}; a failure also goes to {@code failed}. */
        static Answer completing(CompletableFuture<Reply> reply, Consumer<RuntimeException> failed) {
            return new Answer() {
                @Override
                public void reply(Reply r) {
                    reply.complete(r);
                }

                @Override
                public void fail(RuntimeException failure) {
                    reply.completeExceptionally(failure);
                    failed.accept(failure);
                }
            };
        }
    }

    private record Waiting(Request request, Answer answer) {}

    private final NodeId self;
    private final PaxosStore store;
    private final GroupCommit groupCommit;
    private final Executor lane;
    /** Partitions with a persist in flight, and the requests that arrived for them meanwhile. */
    private final Map<PaxosKey, ArrayDeque<Waiting>> busy = new HashMap<>();
    /**
     * The durable registers of recently stepped partitions, most recent last. Only this lane changes its partitions'
     * registers, so an entry is what the store holds: it is replaced when a persist completes and dropped when one
     * fails (the store's content is then unknown).
     */
    private final Map<PaxosKey, AcceptorState> registers;
    private final DeferredPromises deferred;

    /**
     * @param cachedRegisters how many partitions' durable registers to keep in memory
     * @param deferredMax how many deferred promises may wait for a write before the oldest is written out on its own
     */
    LaneAcceptor(NodeId self, PaxosStore store, GroupCommit groupCommit, Executor lane, int cachedRegisters, int deferredMax) {
        this.self = self;
        this.deferred = new DeferredPromises(deferredMax);
        this.store = store;
        this.groupCommit = groupCommit;
        this.lane = lane;
        this.registers = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<PaxosKey, AcceptorState> eldest) {
                return size() > cachedRegisters;
            }
        };
    }

    /** Handles {@code request}; {@code answer} hears once the reply may be sent, or why there is none. */
    void receive(Request request, Answer answer) {
        ArrayDeque<Waiting> waiting = busy.get(request.key());
        if (waiting != null) waiting.add(new Waiting(request, answer));
        else step(request, answer);
    }

    /** Partitions waiting for a persist (a gauge for tests). */
    int busyPartitions() {
        return busy.size();
    }

    private void step(Request request, Answer answer) {
        PaxosKey key = request.key();
        Step step;
        try {
            AcceptorState state = deferred.get(key);
            if (state == null) state = registers.get(key);
            if (state == null) {
                state = store.load(key);
                registers.put(key, state);
            }
            if (request instanceof Prepare prepare) step = Acceptor.onPrepare(state, prepare);
            else if (request instanceof Propose propose) step = Acceptor.onPropose(self, state, propose, store.plainVersion(key));
            else if (request instanceof Commit commit) step = Acceptor.onCommit(state, commit);
            else if (request instanceof Prune prune) step = Acceptor.onPrune(state, prune);
            else throw new IllegalArgumentException("unknown request " + request);
        } catch (RuntimeException e) {
            answer.fail(e); // nothing persisted, nothing sent: as a lost message
            return;
        }
        if (!step.persist()) {
            send(request, step.reply(), answer);
            return;
        }
        if (step.deferrable()) {
            deferred.defer(key, step.next());
            send(request, step.reply(), answer);
            Map.Entry<PaxosKey, AcceptorState> oldest = deferred.overflow(busy::containsKey);
            if (oldest != null) persist(oldest.getKey(), oldest.getValue(), List.of(), failed -> {});
            return;
        }
        Step durable = step;
        persist(key, durable.next(), durable.apply(), failed -> {
            if (failed == null) send(request, durable.reply(), answer);
            else answer.fail(failed);
        });
    }

    /**
     * Makes {@code state} the partition's durable registers, off the lane, then runs {@code done} on the lane. Until
     * then the partition's requests wait. A failure leaves the store's content unknown: the cached copy is dropped,
     * a deferred promise is kept (it is still owed to its coordinator).
     */
    private void persist(PaxosKey key, AcceptorState state, List<Decree> apply, Consumer<RuntimeException> done) {
        busy.put(key, new ArrayDeque<>());
        groupCommit.persist(key, state, apply, failed -> {
            try {
                lane.execute(() -> {
                    if (failed == null) {
                        registers.put(key, state);
                        deferred.durable(key); // no later than any deferred one: steps of a partition are sequential
                    } else {
                        registers.remove(key);
                    }
                    done.accept(failed);
                    release(key);
                });
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // the node is stopping: the reply is lost, as any message may be; what was persisted stays
            }
        });
    }

    private void send(Request request, Reply step, Answer answer) {
        Reply r = step;
        try {
            if (r instanceof Promise promise && promise.read() == null) r = promise.withRead(store.read(request.key(), ((Prepare) request).queries()));
        } catch (RuntimeException e) {
            answer.fail(e);
            return;
        }
        try {
            answer.reply(r);
        } catch (RuntimeException e) { // the receiver's fault (a coordinator bug); the partition's queue goes on
            answer.fail(e);
        }
    }

    /** The partition's persist is done: run what waited for it, in order, until one persists again. */
    private void release(PaxosKey key) {
        ArrayDeque<Waiting> waiting = busy.remove(key);
        while (waiting != null && !waiting.isEmpty()) {
            Waiting next = waiting.poll();
            step(next.request(), next.answer());
            ArrayDeque<Waiting> again = busy.get(key);
            if (again != null) {
                again.addAll(waiting);
                return;
            }
        }
    }
}

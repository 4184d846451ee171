package ballot.paxos.acceptor;

import ballot.paxos.Decree;
import ballot.paxos.Mark;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.spi.Observer;
import ballot.paxos.spi.PaxosStore;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The acceptor every node runs (docs/paxos.md §4.12): loads a partition's registers, runs the pure {@link Acceptor}
 * transition, persists through the store's asynchronous {@link PaxosStore#persist} and replies once the persist is
 * done, with a promise's read taken after it. While a partition's persist is in flight its next requests wait here
 * in arrival order, so many partitions' persists can share one synced write while each partition's steps stay
 * strictly sequential. Promises to this node's own coordinator (§4.2.5) are kept in memory until the partition's next
 * write ({@link DeferredPromises}).
 *
 * <p>Confined to its home executor's thread; persist completions, which may arrive on any thread, are handed back
 * through it.
 */
public final class AcceptorShell {
    /** Where a request's outcome goes: its reply (null for Prune), or the failure that kept it from being answered. */
    public interface Answer {
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
    private final Executor home;
    private final Observer observer;
    /** Partitions this replica has no history of: it answers none of their prepares and proposals (§4.14). */
    private final Predicate<PaxosKey> abstains;
    /** Partitions with a persist in flight, and the requests that arrived for them meanwhile (§4.12, invariant 2). */
    private final Map<PaxosKey, ArrayDeque<Waiting>> busy = new HashMap<>();
    /**
     * The durable registers of recently stepped partitions, most recent last. Only this shell changes its partitions'
     * registers, so an entry is what the store holds: replaced when a persist completes, dropped when one fails
     * (invariant 3).
     */
    private final Map<PaxosKey, AcceptorState> registers;
    private final DeferredPromises deferred;

    /**
     * @param home the executor the shell is confined to; persist completions come back through it
     * @param abstains the partitions whose votes this replica takes no part in (docs/paxos.md §4.14)
     * @param cachedRegisters how many partitions' durable registers to keep in memory
     * @param deferredMax how many deferred promises may wait for a write before the oldest is written out on its own
     */
    public AcceptorShell(NodeId self, PaxosStore store, Executor home, Observer observer, Predicate<PaxosKey> abstains,
            int cachedRegisters, int deferredMax) {
        this.self = self;
        this.abstains = abstains;
        this.store = store;
        this.home = home;
        this.observer = observer;
        this.deferred = new DeferredPromises(deferredMax);
        this.registers = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<PaxosKey, AcceptorState> eldest) {
                return size() > cachedRegisters;
            }
        };
    }

    /** Handles {@code request}; {@code answer} hears once the reply may be sent, or why there is none. */
    public void receive(Request request, Answer answer) {
        if ((request instanceof Prepare || request instanceof Propose) && abstains.test(request.key())) {
            observer.mark(Mark.ABSTAINED);
            answer.reply(null); // as a lost message: the coordinator counts on the other replicas
            return;
        }
        ArrayDeque<Waiting> waiting = busy.get(request.key());
        if (waiting == null) {
            step(request, answer);
            return;
        }
        observer.mark(Mark.ACCEPTOR_WAITED_FOR_PERSIST);
        waiting.add(new Waiting(request, answer));
    }

    /**
     * Deletes the partition's registers if nothing can need them any more (docs/paxos.md §4.13); {@code floorMicros}
     * must already be the store's durable ballot floor. A partition with a persist in flight is left for a later pass.
     * Returns whether the registers are being deleted.
     */
    public boolean purge(PaxosKey key, long floorMicros) {
        if (busy.containsKey(key) || deferred.get(key) != null) return false;
        Step step = Acceptor.onPurge(registers(key), floorMicros);
        if (!step.persist()) return false;
        observer.mark(Mark.PURGED);
        persist(key, step.next(), List.of(), step.sync(), failed -> {});
        return true;
    }

    private void step(Request request, Answer answer) {
        PaxosKey key = request.key();
        Step step;
        try {
            step = transition(registers(key), request);
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
            Map.Entry<PaxosKey, AcceptorState> oldest = deferred.overflow();
            if (oldest != null) {
                observer.mark(Mark.DEFERRED_PROMISE_WRITTEN_OUT);
                persist(oldest.getKey(), oldest.getValue(), List.of(), true, failed -> {});
            }
            return;
        }
        Step durable = step;
        persist(key, durable.next(), durable.apply(), durable.sync(), failed -> {
            if (failed == null) send(request, durable.reply(), answer);
            else answer.fail(failed);
        });
    }

    private AcceptorState registers(PaxosKey key) {
        AcceptorState state = deferred.get(key);
        if (state == null) state = registers.get(key);
        if (state == null) {
            state = store.load(key);
            registers.put(key, state);
        }
        return state;
    }

    private Step transition(AcceptorState state, Request request) {
        if (request instanceof Prepare prepare) return Acceptor.onPrepare(state, prepare);
        if (request instanceof Propose propose) return Acceptor.onPropose(self, state, propose, store.plainVersion(request.key()));
        if (request instanceof Commit commit) return Acceptor.onCommit(state, commit);
        if (request instanceof Prune prune) return Acceptor.onPrune(state, prune);
        throw new IllegalArgumentException("unknown request " + request);
    }

    /**
     * Makes {@code state} the partition's durable registers (synced to disk if {@code sync}, else written), then runs
     * {@code done} on the home executor; until then the partition's requests wait. A failure leaves the store's content unknown: the cached copy is dropped, a
     * deferred promise is kept (it is still owed to its coordinator).
     */
    private void persist(PaxosKey key, AcceptorState state, List<Decree> apply, boolean sync, Consumer<RuntimeException> done) {
        busy.put(key, new ArrayDeque<>());
        deferred.writing(key);
        store.persist(key, state, apply, sync, failed -> {
            try {
                home.execute(() -> {
                    if (failed == null) {
                        registers.put(key, state);
                        deferred.durable(key); // no later than any deferred one: steps of a partition are sequential
                    } else {
                        registers.remove(key);
                        deferred.notWritten(key);
                    }
                    done.accept(failed);
                    release(key);
                });
            } catch (RejectedExecutionException stopping) {
                // the home executor is stopping: the reply is lost, as any message may be; what was persisted stays
            }
        });
    }

    private void send(Request request, Reply reply, Answer answer) {
        Reply r = reply;
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

package ballot.transactions;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.data.DeletionTime;
import ballot.cql.trace.Trace;
import ballot.cql.trace.Tracing;
import ballot.lwt.CqlValues;
import ballot.lwt.PaxosEngine;
import ballot.paxos.Bytes;
import ballot.paxos.coordinator.CasRequest;
import ballot.paxos.coordinator.CasResult;
import ballot.txn.Decision;
import ballot.txn.Operation;
import ballot.txn.PartitionState;
import ballot.txn.Transition;
import ballot.txn.TxnId;
import ballot.txn.spi.PartitionCas;
import ballot.txn.step.Fence;
import ballot.txn.step.Finalize;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Reply;
import ballot.txn.step.Resolve;
import ballot.txn.step.Restart;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction core's one primitive over the node's Paxos (docs/txn.md §11.1): each step is a compare-and-set of
 * its partition that reads the partition's transaction state (and, for a step that evaluates an operation, the
 * participant's rows), runs the step at the decree's timestamp, and proposes the difference: the update now in the
 * value, if any, and the new transaction state. Replies reach the coordinator on its lane.
 */
final class PaxosPartitionCas implements PartitionCas<TxnValue> {
    private static final Logger log = LoggerFactory.getLogger(PaxosPartitionCas.class);
    /** A step that evaluates no operation reads no rows: the static row only, the cheapest read of a partition. */
    private static final ReadSpec STATE_ONLY = new ReadSpec(List.of(), false, 1, 1, 0);

    /**
     * Where a partition's steps run (docs/txn.md §11.1, "Coordination"): the node that coordinates its Paxos rounds,
     * or null for this node; and how steps get there.
     */
    interface Route {
        Route LOCAL = new Route() {
            public InetSocketAddress coordinator(ballot.txn.PartitionKey key) {
                return null;
            }

            public CompletableFuture<byte[]> send(InetSocketAddress to, byte[] steps) {
                throw new IllegalStateException("nothing is sent on the local route");
            }
        };

        InetSocketAddress coordinator(ballot.txn.PartitionKey key);

        /** Sends encoded steps ({@link TxnStepCodec}) to {@code to}; completes with its encoded replies. */
        CompletableFuture<byte[]> send(InetSocketAddress to, byte[] steps);
    }

    private final PaxosEngine engine;
    private final Function<UUID, TableMetadata> tables;
    private final Executor lane;
    private final Supplier<Route> route;
    private final Function<TxnId, ? extends Trace> traces;

    /**
     * {@code tables} finds a table by id and throws for one that does not exist; replies are run on {@code lane};
     * {@code route} says where each partition's steps run; {@code traces} finds the trace of a transaction whose
     * statement is traced (null for others).
     */
    PaxosPartitionCas(PaxosEngine engine, Function<UUID, TableMetadata> tables, Executor lane, Supplier<Route> route,
            Function<TxnId, ? extends Trace> traces) {
        this.engine = engine;
        this.tables = tables;
        this.lane = lane;
        this.route = route;
        this.traces = traces;
    }

    /** A step and where its reply goes. */
    private record Pending(Step<TxnValue> step, Consumer<Reply> reply) {}

    /** Steps issued for each partition during the lane's current task (touched on the lane thread only). */
    private final Map<ballot.txn.PartitionKey, List<Pending>> gathering = new HashMap<>();

    /**
     * Called on the lane. Steps for one partition issued in the same lane task (a transaction's {@code Stage} and its
     * home's {@code Place}, sent together) go out as one CAS once the task is over, evaluated one after the other on
     * the partition's state, when all but the last leave the value alone (docs/txn.md §11.1); others go one by one.
     */
    @Override
    public void apply(ballot.txn.PartitionKey key, Step<TxnValue> step, Consumer<Reply> reply) {
        List<Pending> pending = gathering.get(key);
        boolean first = pending == null;
        if (first) {
            pending = new ArrayList<>(2);
            gathering.put(key, pending);
        }
        pending.add(new Pending(step, reply));
        if (first) lane.execute(() -> flush(key));
    }

    private void flush(ballot.txn.PartitionKey key) {
        List<Pending> pending = gathering.remove(key);
        if (pending == null) return;
        List<Pending> together = new ArrayList<>();
        for (Pending p : pending) {
            // A step that may change the value ends a group: the next one would evaluate on rows not yet written.
            together.add(p);
            if (changesValue(p.step())) {
                send(key, together);
                together = new ArrayList<>();
            }
        }
        if (!together.isEmpty()) send(key, together);
    }

    private static boolean changesValue(Step<TxnValue> step) {
        return step instanceof Place<TxnValue> || step instanceof OnePhase<TxnValue> || step instanceof Resolve<TxnValue>
                || step instanceof Finalize<TxnValue>; // it resolves the home's own intent
    }

    private void send(ballot.txn.PartitionKey key, List<Pending> steps) {
        List<Step<TxnValue>> list = steps.stream().map(Pending::step).toList();
        Route r = route.get();
        InetSocketAddress coordinator = TxnStepCodec.travels(list) ? r.coordinator(key) : null;
        Trace trace = trace(list);
        if (trace != null) trace.event("Transaction steps " + names(list) + " on " + describe(key) + (coordinator == null ? " here" : " sent to " + coordinator));
        if (coordinator == null) {
            runHere(key, list, trace, replies -> deliver(steps, replies, trace));
            return;
        }
        byte[] request;
        try {
            request = TxnStepCodec.encode(new TxnStepCodec.Request(TxnKeys.tableId(key), TxnKeys.partitionKey(key), list));
        } catch (RuntimeException e) {
            log.error("transaction steps {} on {} cannot be encoded", list, key, e);
            deliver(steps, null, trace);
            return;
        }
        Tracing.call(trace, () -> r.send(coordinator, request)).whenComplete((bytes, failure) -> {
            List<Reply> replies = null;
            if (failure == null) {
                try {
                    replies = TxnStepCodec.decodeReplies(bytes, TxnKeys.tableId(key), TxnKeys.partitionKey(key));
                } catch (RuntimeException e) {
                    log.error("malformed replies to transaction steps {} from {}", list, coordinator, e);
                }
            } else if (log.isDebugEnabled()) {
                log.debug("transaction steps {} on {} sent to {} failed: {}", list, key, coordinator, failure.toString());
            }
            deliver(steps, replies, trace);
        });
    }

    /** Hands each step its reply on the lane; all unknown when {@code replies} is null. */
    private void deliver(List<Pending> steps, List<Reply> replies, Trace trace) {
        if (trace != null) trace.event("Transaction steps " + names(steps.stream().map(Pending::step).toList()) + " answered "
                + (replies == null ? "unknown" : replies.stream().map(PaxosPartitionCas::describe).toList()));
        for (int i = 0; i < steps.size(); i++) {
            Reply answer = replies == null ? Reply.UNKNOWN : replies.get(i);
            Consumer<Reply> reply = steps.get(i).reply();
            lane.execute(() -> reply.accept(answer));
        }
    }

    /**
     * Runs {@code steps} of {@code key} as one CAS through this node's Paxos, whoever asked, its rounds traced in
     * {@code trace} (null: untraced); {@code done} hears their replies (null: unknown), on any thread.
     */
    void runHere(ballot.txn.PartitionKey key, List<Step<TxnValue>> steps, Trace trace, Consumer<List<Reply>> done) {
        StepRequest request;
        TableMetadata table;
        try {
            table = tables.apply(TxnKeys.tableId(key));
            request = new StepRequest(steps, table, TxnKeys.partitionKey(key));
        } catch (RuntimeException e) {
            log.warn("transaction steps {} on {} cannot start: {}", steps, key, e.toString());
            done.accept(null);
            return;
        }
        Tracing.call(trace, () -> engine.transactionStep(table, request.key, request, commitLevel(steps), " (transaction " + names(steps) + ")"))
                .whenComplete((result, failure) -> {
                    if (failure == null && request.resolvedFirst(result)) {
                        runHere(key, steps, trace, done); // the blocker's writes are in: now the steps themselves
                        return;
                    }
                    done.accept(failure != null ? null : request.replies(result));
                });
    }

    private static String names(List<Step<TxnValue>> steps) {
        return String.join("+", steps.stream().map(s -> s.getClass().getSimpleName()).toList());
    }

    /** The trace of the first traced transaction among {@code steps}, or null. */
    private Trace trace(List<Step<TxnValue>> steps) {
        for (Step<TxnValue> step : steps) {
            TxnId id = transaction(step);
            Trace trace = id == null ? null : traces.apply(id);
            if (trace != null) return trace;
        }
        return null;
    }

    /** The transaction a step works for, or null for one that works for none in particular (an inspection). */
    private static TxnId transaction(Step<TxnValue> step) {
        if (step instanceof Stage<TxnValue> s) return s.record().id();
        if (step instanceof Place<TxnValue> p) return p.attempt().id();
        if (step instanceof OnePhase<TxnValue> o) return o.attempt().id();
        if (step instanceof Finalize<TxnValue> f) return f.attempt().id();
        if (step instanceof Resolve<TxnValue> r) return r.decision().attempt().id();
        if (step instanceof Fence<TxnValue> f) return f.attempt().id();
        if (step instanceof Restart<TxnValue> r) return r.id();
        if (step instanceof ReadRecord<TxnValue> r) return r.id();
        return null;
    }

    private String describe(ballot.txn.PartitionKey key) {
        try {
            TableMetadata table = tables.apply(TxnKeys.tableId(key));
            return table.keyspace() + "." + table.name();
        } catch (RuntimeException e) {
            return "table " + TxnKeys.tableId(key);
        }
    }

    /** A reply in a trace: a placement's outcome, or the kind of reply. */
    private static String describe(Reply reply) {
        return reply instanceof Reply.Placement<?> p ? p.outcome().name() : reply.getClass().getSimpleName();
    }

    /**
     * Steps need only their decision, durable in a quorum of accepts (ANY), except those that change what a plain read
     * of the partition sees (docs/txn.md §10): a placement writes an intent, which a QUORUM read after the client's
     * answer must find so that it waits for the resolution; a resolution, a 1PC and a finalization (which resolves the
     * home's intent) write the transaction's values. They are applied at a quorum at least: a placement or a 1PC at
     * its client's consistency where that asks for more ({@link #commitOfValues}), so that a read at ONE after an
     * answer at ALL meets the intent, or the value. A CAS carries at most one of them, its last step ({@link #flush}
     * ends a group there).
     */
    static ConsistencyLevel commitLevel(List<Step<TxnValue>> steps) {
        ConsistencyLevel level = ConsistencyLevel.ANY;
        for (Step<TxnValue> step : steps) {
            if (!changesValue(step)) continue;
            Operation<TxnValue> operation = step instanceof Place<TxnValue> p ? p.operation() : step instanceof OnePhase<TxnValue> o ? o.operation() : null;
            level = commitOfValues(operation instanceof CqlOperation c ? c.commit() : ConsistencyLevel.QUORUM);
        }
        return level;
    }

    /**
     * The commit consistency of a step that writes a client's intent or values: the client's own where it may count
     * more replicas than a quorum (ALL, EACH_QUORUM, TWO, THREE; the engine raises TWO or THREE below a quorum of the
     * partition's replicas to QUORUM), else QUORUM, which a read at QUORUM after the answer needs.
     */
    static ConsistencyLevel commitOfValues(ConsistencyLevel asked) {
        return switch (asked) {
            case ALL, EACH_QUORUM, TWO, THREE -> asked;
            default -> ConsistencyLevel.QUORUM;
        };
    }

    /**
     * Whether the client's answer may follow from the step's reply (a placement's, a 1PC's): such a step decided short
     * of its quorum of applications (a commit timeout) is unknown, so the core sends it again, and the round of the
     * repeat answers only once the earlier decree is applied at a quorum (docs/paxos.md §4.4, §4.8).
     */
    private static boolean answersClient(Step<TxnValue> step) {
        return step instanceof Place<TxnValue> || step instanceof OnePhase<TxnValue>;
    }

    /**
     * Steps of one partition as one request of the Paxos core, evaluated one after the other on the partition's state;
     * the last evaluation is the one that counts (docs/paxos.md §4.10).
     */
    private static final class StepRequest implements CasRequest {
        private final List<Step<TxnValue>> steps;
        private final TableMetadata table;
        private final PartitionKey key;
        private final Bytes query;
        private volatile List<Reply> last;
        private volatile RuntimeException error;
        /** Whether the last evaluation rolled a committed blocker forward instead of running the steps (see {@link #evaluate}). */
        private volatile boolean resolving;

        StepRequest(List<Step<TxnValue>> steps, TableMetadata table, PartitionKey key) {
            this.steps = steps;
            this.table = table;
            this.key = key;
            this.query = CqlValues.Query.of(table.id(), rowsRead(steps.get(steps.size() - 1)), true).encode();
        }

        private static ReadSpec rowsRead(Step<TxnValue> step) {
            if (step instanceof Place<TxnValue> place && place.operation() instanceof CqlOperation op) return op.request().read();
            if (step instanceof OnePhase<TxnValue> one && one.operation() instanceof CqlOperation op) return op.request().read();
            return STATE_ONLY;
        }

        @Override
        public Bytes query() {
            return query;
        }

        @Override
        public Optional<Bytes> evaluate(Bytes current, long timestampMicros) {
            try {
                CqlValues.Result result = CqlValues.decodeResultWithTxn(current);
                PartitionState<TxnValue> state = TxnStateCodec.decode(result.txn() == null ? null : result.txn().state(),
                        new TxnValue.Read(result.data()), table.id(), key);
                // A placement that carries the commit of the intent it meets would roll it forward and then evaluate
                // its operation on rows not yet written, in one decree at one timestamp, where a deletion among the
                // rolled-forward writes would shadow the operation's own. So this CAS rolls the intent forward alone,
                // and the steps run in the next (docs/txn.md §11.1).
                Decision blocker = committedBlocker(state);
                resolving = blocker != null;
                List<Step<TxnValue>> run = resolving ? List.of(new Resolve<>(blocker)) : steps;
                List<Reply> replies = new ArrayList<>(run.size());
                boolean changed = false;
                for (Step<TxnValue> step : run) {
                    Transition<TxnValue> transition = step.evaluate(state, timestampMicros);
                    replies.add(transition.reply());
                    if (transition.changed()) {
                        changed = true;
                        state = transition.next();
                    }
                }
                last = replies;
                error = null;
                if (!changed) return Optional.empty();
                PartitionUpdate write = state.value() instanceof TxnValue.Write w ? w.update()
                        : new PartitionUpdate(table.id(), key, DeletionTime.LIVE, List.of(), null, List.of());
                return Optional.of(CqlValues.encodeEntry(write, 0, TxnStateCodec.encode(state, table.id(), key)));
            } catch (RuntimeException e) {
                error = e;
                return Optional.empty();
            }
        }

        /** The committed decision the last step carries about the partition's intent, if it is a placement that carries one. */
        private Decision committedBlocker(PartitionState<TxnValue> state) {
            if (state.intent() == null) return null;
            Step<TxnValue> step = steps.get(steps.size() - 1);
            List<Decision> decisions = step instanceof Place<TxnValue> p ? p.decisions() : step instanceof OnePhase<TxnValue> o ? o.decisions() : List.of();
            for (Decision d : decisions) if (d.committed() && d.attempt().equals(state.intent().attempt())) return d;
            return null;
        }

        /** Whether the CAS only rolled a committed blocker forward, so the steps must be sent again. */
        boolean resolvedFirst(CasResult result) {
            return resolving && error == null && (result.outcome() == CasResult.Outcome.APPLIED || result.outcome() == CasResult.Outcome.COMMIT_TIMEOUT);
        }

        /** The steps' replies for the core's answer: the last evaluation's when it was decided or read; else null (unknown). */
        List<Reply> replies(CasResult result) {
            RuntimeException failed = error;
            if (failed != null) {
                log.error("transaction steps {} on {}.{} failed", steps, table.keyspace(), table.name(), failed);
                return null;
            }
            List<Reply> replies = last;
            if (replies == null || resolving) return null;
            return switch (result.outcome()) {
                case APPLIED, NOT_APPLIED -> replies;
                case COMMIT_TIMEOUT -> answersClient(steps.get(steps.size() - 1)) ? null : replies;
                case UNKNOWN, TIMED_OUT, UNAVAILABLE, OVERLOADED -> null;
            };
        }

        @Override
        public String toString() {
            return "txn-steps(" + names(steps) + " on " + table.name() + ")";
        }
    }
}

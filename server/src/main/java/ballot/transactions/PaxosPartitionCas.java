package ballot.transactions;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.data.DeletionTime;
import ballot.lwt.CqlValues;
import ballot.lwt.PaxosEngine;
import ballot.paxos.Bytes;
import ballot.paxos.coordinator.CasRequest;
import ballot.paxos.coordinator.CasResult;
import ballot.txn.Decision;
import ballot.txn.PartitionState;
import ballot.txn.Transition;
import ballot.txn.spi.PartitionCas;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.Reply;
import ballot.txn.step.Resolve;
import ballot.txn.step.Step;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
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

    private final PaxosEngine engine;
    private final Function<UUID, TableMetadata> tables;
    private final Executor lane;

    /** {@code tables} finds a table by id and throws for one that does not exist; replies are run on {@code lane}. */
    PaxosPartitionCas(PaxosEngine engine, Function<UUID, TableMetadata> tables, Executor lane) {
        this.engine = engine;
        this.tables = tables;
        this.lane = lane;
    }

    @Override
    public void apply(ballot.txn.PartitionKey key, Step<TxnValue> step, Consumer<Reply> reply) {
        StepRequest request;
        TableMetadata table;
        try {
            table = tables.apply(TxnKeys.tableId(key));
            request = new StepRequest(step, table, TxnKeys.partitionKey(key));
        } catch (RuntimeException e) {
            log.warn("transaction step {} on {} cannot start: {}", step.getClass().getSimpleName(), key, e.toString());
            lane.execute(() -> reply.accept(Reply.UNKNOWN));
            return;
        }
        engine.transactionStep(table, request.key, request, commitLevel(step), " (transaction " + step.getClass().getSimpleName() + ")")
                .whenComplete((result, failure) -> {
                    if (failure == null && request.resolvedFirst(result)) {
                        apply(key, step, reply); // the blocker's writes are in: now the step itself
                        return;
                    }
                    Reply answer = failure != null ? Reply.UNKNOWN : request.reply(result);
                    lane.execute(() -> reply.accept(answer));
                });
    }

    /**
     * Steps need only their decision, durable in a quorum of accepts (ANY); a resolution and a 1PC write the
     * transaction's values, which a QUORUM read after the client's answer must see.
     */
    private static ConsistencyLevel commitLevel(Step<TxnValue> step) {
        return step instanceof Resolve<TxnValue> || step instanceof OnePhase<TxnValue> ? ConsistencyLevel.QUORUM : ConsistencyLevel.ANY;
    }

    /** One step as the Paxos core sees it; the last evaluation is the one that counts (docs/paxos.md §4.10). */
    private static final class StepRequest implements CasRequest {
        private final Step<TxnValue> step;
        private final TableMetadata table;
        private final PartitionKey key;
        private final Bytes query;
        private volatile Reply last;
        private volatile RuntimeException error;
        /** Whether the last evaluation rolled a committed blocker forward instead of running the step (see {@link #evaluate}). */
        private volatile boolean resolving;

        StepRequest(Step<TxnValue> step, TableMetadata table, PartitionKey key) {
            this.step = step;
            this.table = table;
            this.key = key;
            this.query = CqlValues.Query.of(table.id(), rowsRead(step), true).encode();
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
                // and the step runs in the next (docs/txn.md §11.1).
                Decision blocker = committedBlocker(state);
                resolving = blocker != null;
                Transition<TxnValue> transition = (resolving ? new Resolve<TxnValue>(blocker) : step).evaluate(state, timestampMicros);
                last = transition.reply();
                error = null;
                if (!transition.changed()) return Optional.empty();
                PartitionState<TxnValue> next = transition.next();
                PartitionUpdate write = next.value() instanceof TxnValue.Write w ? w.update()
                        : new PartitionUpdate(table.id(), key, DeletionTime.LIVE, List.of(), null, List.of());
                return Optional.of(CqlValues.encodeEntry(write, 0, TxnStateCodec.encode(next, table.id(), key)));
            } catch (RuntimeException e) {
                error = e;
                return Optional.empty();
            }
        }

        /** The committed decision the step carries about the partition's intent, if it is a placement that carries one. */
        private Decision committedBlocker(PartitionState<TxnValue> state) {
            if (state.intent() == null) return null;
            List<Decision> decisions = step instanceof Place<TxnValue> p ? p.decisions() : step instanceof OnePhase<TxnValue> o ? o.decisions() : List.of();
            for (Decision d : decisions) if (d.committed() && d.attempt().equals(state.intent().attempt())) return d;
            return null;
        }

        /** Whether the CAS only rolled a committed blocker forward, so the step must be sent again. */
        boolean resolvedFirst(CasResult result) {
            return resolving && error == null && (result.outcome() == CasResult.Outcome.APPLIED || result.outcome() == CasResult.Outcome.COMMIT_TIMEOUT);
        }

        /** The step's reply for the core's answer: the last evaluation's when it was decided or read, else unknown. */
        Reply reply(CasResult result) {
            RuntimeException failed = error;
            if (failed != null) {
                log.error("transaction step {} on {}.{} failed", step, table.keyspace(), table.name(), failed);
                return Reply.UNKNOWN;
            }
            Reply reply = last;
            if (reply == null || resolving) return Reply.UNKNOWN;
            return switch (result.outcome()) {
                case APPLIED, NOT_APPLIED, COMMIT_TIMEOUT -> reply;
                case UNKNOWN, TIMED_OUT, UNAVAILABLE -> Reply.UNKNOWN;
            };
        }

        @Override
        public String toString() {
            return "txn-step(" + step.getClass().getSimpleName() + " on " + table.name() + ")";
        }
    }
}

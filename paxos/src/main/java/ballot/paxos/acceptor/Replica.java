package ballot.paxos.acceptor;

import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.spi.PaxosStore;
import ballot.paxos.spi.Transport;
import java.util.List;
import java.util.Map;

/**
 * The acceptor's shell on one node: loads a partition's registers, runs the pure {@link Acceptor} transition,
 * persists (and applies decrees) <em>before</em> replying, attaches the local read to a promise, and replies. A
 * deferrable promise (the sole replica's own coordinator, docs/paxos.md §4.2.5) is kept in memory instead, until
 * the partition's next write or until more than {@code deferredMax} are waiting ({@link DeferredPromises}).
 *
 * <p>Not thread-safe per partition: the server runs all requests of one partition on one thread at a time (an
 * executor keyed by partition), which is also what makes the version check and the accept one atomic step.
 */
public final class Replica {
    private final NodeId self;
    private final PaxosStore store;
    private final Transport transport;
    private final DeferredPromises deferred;

    public Replica(NodeId self, PaxosStore store, Transport transport) {
        this(self, store, transport, 1024);
    }

    /** @param deferredMax deferred promises kept in memory; beyond that the oldest is written out */
    public Replica(NodeId self, PaxosStore store, Transport transport, int deferredMax) {
        this.self = self;
        this.store = store;
        this.transport = transport;
        this.deferred = new DeferredPromises(deferredMax);
    }

    public void receive(NodeId from, Request request) {
        Reply reply = handle(request);
        if (reply != null) transport.send(from, reply);
    }

    /** Runs one request to completion (persisted, or deferred where the step allows) and returns the reply, if any. */
    public Reply handle(Request request) {
        PaxosKey key = request.key();
        AcceptorState state = deferred.get(key);
        if (state == null) state = store.load(key);
        Step step;
        if (request instanceof Prepare prepare) step = Acceptor.onPrepare(state, prepare);
        else if (request instanceof Propose propose) step = Acceptor.onPropose(self, state, propose, store.plainVersion(key));
        else if (request instanceof Commit commit) step = Acceptor.onCommit(state, commit);
        else if (request instanceof Prune prune) step = Acceptor.onPrune(state, prune);
        else throw new IllegalArgumentException("unknown request " + request);

        if (step.persist() && step.deferrable()) {
            deferred.defer(key, step.next());
            Map.Entry<PaxosKey, AcceptorState> oldest = deferred.overflow(k -> false);
            if (oldest != null) {
                store.persist(oldest.getKey(), oldest.getValue(), List.of());
                deferred.durable(oldest.getKey());
            }
        } else if (step.persist()) {
            store.persist(key, step.next(), step.apply()); // includes whatever was deferred: it is a later state
            deferred.durable(key);
        }
        Reply reply = step.reply();
        if (reply instanceof Promise promise && promise.read() == null)
            reply = promise.withRead(store.read(key, ((Prepare) request).queries()));
        return reply;
    }
}

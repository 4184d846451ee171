package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Rejected;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Phase 1 of one ballot with the read (docs/paxos.md §4.2): collects promises and refusals until a quorum promised
 * or a quorum became impossible. Keeps collecting after that: late promises enrich the cached state (§4.8).
 */
final class PrepareRound {
    final Ballot ballot;
    final List<Bytes> queries;
    final Electorate electorate;
    /** Our own replica may keep its promise in memory (docs/paxos.md §4.2.5): the prepare it is sent says so. */
    final boolean ownPromiseInMemory;
    final Map<NodeId, Promise> promises = new LinkedHashMap<>();
    final Map<NodeId, Rejected> rejections = new LinkedHashMap<>();

    PrepareRound(Ballot ballot, List<Bytes> queries, Electorate electorate, boolean ownPromiseInMemory) {
        this.ballot = ballot;
        this.queries = List.copyOf(queries);
        this.electorate = electorate;
        this.ownPromiseInMemory = ownPromiseInMemory;
    }

    /** Records a reply; false if it is not for this round or is a duplicate. */
    boolean add(NodeId from, Promise promise) {
        if (!promise.ballot().equals(ballot) || !electorate.isVoter(from) || replied(from)) return false;
        if (promise.read() == null || promise.read().results().size() != queries.size())
            throw new IllegalStateException("promise from " + from + " does not answer the " + queries.size() + " queries: " + promise);
        promises.put(from, promise);
        return true;
    }

    boolean add(NodeId from, Rejected rejected) {
        if (!rejected.ballot().equals(ballot) || rejected.phase() != Rejected.Phase.PREPARE || !electorate.isVoter(from)
                || replied(from)) return false;
        rejections.put(from, rejected);
        return true;
    }

    boolean replied(NodeId node) {
        return promises.containsKey(node) || rejections.containsKey(node);
    }

    boolean promised() {
        return promises.size() >= electorate.quorum();
    }

    /**
     * Whether a quorum of promises is out of reach: the promises so far and the voters that may still answer are too
     * few. A voter the failure detector ({@code alive}) holds down is not waited for: with one of three replicas down,
     * one refusal would otherwise hold the round until its deadline.
     */
    boolean blocked(Predicate<NodeId> alive) {
        int reachable = promises.size();
        for (NodeId n : electorate.voters()) if (!replied(n) && alive.test(n)) reachable++;
        return reachable < electorate.quorum();
    }

    /** Whether every voter that may still answer (one {@code alive} does not hold down) has answered. */
    boolean awaitsNoLiveVoter(Predicate<NodeId> alive) {
        for (NodeId n : electorate.voters()) if (!replied(n) && alive.test(n)) return false;
        return true;
    }
}

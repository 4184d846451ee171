package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.message.Promise;
import ballot.paxos.spi.ReadModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A promise this coordinator holds for its next round, with the state to evaluate on (docs/paxos.md §4.8):
 * <ul>
 *   <li>{@code ballot} was promised by a quorum (phase 1 done), after which nothing but our own proposals could be
 *       accepted by them;
 *   <li>{@code cache} is the current state of each query: the reads of the epoch's promises joined with every decree
 *       decided since;
 *   <li>{@code versions} are the plain-write versions of the replicas whose reads are in the cache: a fast proposal
 *       is accepted only where the version is unchanged (§5.7);
 *   <li>{@code predecessor} is the latest decided decree, carried by the next proposal.
 * </ul>
 */
final class Held {
    final Ballot ballot;
    final Ballot epoch;
    final List<Bytes> epochQueries;
    final Map<NodeId, Promise> epochPromises;
    final Map<NodeId, Long> versions;
    final Decree predecessor;
    final Electorate electorate;
    private final ReadModel model;
    /** The states after the decided decrees, until the cache is first needed; then null. */
    private Supplier<Map<Bytes, Bytes>> states;
    private Map<Bytes, Bytes> cache;

    private Held(ReadModel model, Ballot ballot, Ballot epoch, List<Bytes> epochQueries, Map<NodeId, Promise> epochPromises,
            Supplier<Map<Bytes, Bytes>> states, Map<NodeId, Long> versions, Decree predecessor, Electorate electorate) {
        this.model = model;
        this.ballot = ballot;
        this.epoch = epoch;
        this.epochQueries = epochQueries;
        this.epochPromises = epochPromises;
        this.states = states;
        this.versions = versions;
        this.predecessor = predecessor;
        this.electorate = electorate;
    }

    /**
     * A held promise built from a prepare round's promises and the states after its decided decrees. The cache is
     * joined when first used: most partitions written once are never asked again before they are evicted.
     */
    static Held fromPrepare(ReadModel model, Ballot ballot, PrepareRound prepare, Supplier<Map<Bytes, Bytes>> states,
            Decree predecessor) {
        Map<NodeId, Promise> promises = new LinkedHashMap<>(prepare.promises);
        Map<NodeId, Long> versions = new LinkedHashMap<>();
        promises.forEach((node, p) -> versions.put(node, p.read().plainVersion()));
        return new Held(model, ballot, prepare.ballot, prepare.queries, promises, states, versions, predecessor, prepare.electorate);
    }

    /** The held promise after a fast round decided with this one: same epoch, next ballot, states after the decree. */
    Held next(Ballot nextBallot, Supplier<Map<Bytes, Bytes>> states, Decree decided, Iterable<NodeId> stale) {
        Map<NodeId, Long> nextVersions = new LinkedHashMap<>(versions);
        for (NodeId node : stale) nextVersions.remove(node);
        Map<NodeId, Promise> promises = new LinkedHashMap<>(epochPromises);
        for (NodeId node : stale) promises.remove(node);
        return new Held(model, nextBallot, epoch, epochQueries, promises, states, nextVersions, decided, electorate);
    }

    /** The current state of each query: the epoch's promise reads joined with the states after the decrees. */
    Map<Bytes, Bytes> cache() {
        if (cache == null) {
            cache = rejoin(model, states.get(), epochQueries, epochPromises);
            states = null;
        }
        return cache;
    }

    /** Joins a promise of the epoch that arrived after the held promise was formed (§4.8). */
    boolean mergeLate(NodeId from, Promise late) {
        if (!late.ballot().equals(epoch) || versions.containsKey(from) || !electorate.isVoter(from)) return false;
        epochPromises.put(from, late);
        versions.put(from, late.read().plainVersion());
        if (cache == null) return true; // the join, when it happens, includes it
        for (int i = 0; i < epochQueries.size(); i++) {
            Bytes query = epochQueries.get(i);
            Bytes state = cache.get(query);
            if (state != null) cache.put(query, model.merge(query, List.of(state, late.read().results().get(i))));
        }
        cache.keySet().retainAll(epochQueries); // states narrowed from the epoch queries' are taken again when needed
        return true;
    }

    boolean covers(List<Pending> batch) {
        for (Pending p : batch) if (!cache().containsKey(p.request.query()) && !narrowed(p.request.query())) return false;
        return true;
    }

    /**
     * Whether the state of {@code query} could be taken from an epoch query's that reads everything it reads (a
     * transaction's finish reads only the state its placement read with the rows, §4.8); if so, it is cached until a
     * late promise changes the epoch queries' states.
     */
    private boolean narrowed(Bytes query) {
        Map<Bytes, Bytes> states = cache();
        for (Bytes wider : epochQueries) {
            Bytes state = states.get(wider);
            Bytes narrow = state == null ? null : model.narrow(query, wider, state);
            if (narrow != null) {
                states.put(query, narrow);
                return true;
            }
        }
        return false;
    }

    private static Map<Bytes, Bytes> rejoin(ReadModel model, Map<Bytes, Bytes> states, List<Bytes> queries,
            Map<NodeId, Promise> promises) {
        Map<Bytes, Bytes> cache = new HashMap<>();
        for (int i = 0; i < queries.size(); i++) {
            Bytes query = queries.get(i);
            Bytes state = states.get(query);
            if (state == null) continue;
            List<Bytes> results = new ArrayList<>(promises.size() + 1);
            results.add(state);
            for (Promise p : promises.values()) results.add(p.read().results().get(i));
            cache.put(query, model.merge(query, results));
        }
        return cache;
    }
}

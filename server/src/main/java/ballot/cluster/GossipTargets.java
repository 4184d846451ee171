package ballot.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Whom a node gossips with in one round (Cassandra's rules, docs/membership.md §2): one random live peer; one
 * unreachable peer with probability {@code unreachable / (live + 1)}, so that a healed node is found again; and a seed
 * when there is no live peer, or with probability {@code seeds / (live + unreachable)} when the live peer was not a
 * seed or fewer peers than seeds are live, so that partitions of the ring re-merge through the seeds.
 */
final class GossipTargets {
    private GossipTargets() {}

    /** The addresses to send a SYN to. The lists exclude this node; {@code seeds} may overlap the others. */
    static <T> List<T> choose(List<T> live, List<T> unreachable, List<T> seeds, RandomGenerator random) {
        List<T> targets = new ArrayList<>(3);
        boolean toSeed = false;
        if (!live.isEmpty()) {
            T peer = live.get(random.nextInt(live.size()));
            targets.add(peer);
            toSeed = seeds.contains(peer);
        }
        if (!unreachable.isEmpty() && random.nextDouble() < (double) unreachable.size() / (live.size() + 1)) {
            T peer = unreachable.get(random.nextInt(unreachable.size()));
            if (!targets.contains(peer)) targets.add(peer);
        }
        if (!seeds.isEmpty() && (!toSeed || live.size() < seeds.size())) {
            boolean go = live.isEmpty() || random.nextDouble() <= (double) seeds.size() / (live.size() + unreachable.size());
            if (go) {
                T seed = seeds.get(random.nextInt(seeds.size()));
                if (!targets.contains(seed)) targets.add(seed);
            }
        }
        return targets;
    }
}

package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Decree;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.Proposal;
import ballot.paxos.message.Promise;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a set of promises (containing a quorum) says about the partition's chain (docs/paxos.md §4.3), as a pure
 * function:
 * <ol>
 *   <li>the latest decree any of them applied ({@code latest}), which the next proposal carries as predecessor;
 *   <li>the highest accepted proposal after it that may be chosen and must be finished first ({@code replay}),
 *       skipping checked proposals that can provably never be chosen ({@code dead}, §5.7);
 *   <li>for a coordinator's own in-doubt proposal, whether it is known applied, known never applied, or unknown.
 * </ol>
 */
record PromiseAnalysis(Decree latest, boolean someStale, Proposal replay, List<Ballot> dead, InDoubtFate inDoubtFate,
        Decree inDoubtDecree) {

    enum InDoubtFate {
        NONE,
        /** Decided and applied somewhere. */
        APPLIED,
        /** It is the incomplete proposal this round finishes. */
        REPLAYING,
        /** It can never take effect. */
        NOT_APPLIED,
        /** It is not decided yet, and can never be once this round decides anything (§4.10). */
        NOT_APPLIED_ONCE_DECIDED,
        UNKNOWN
    }

    static PromiseAnalysis of(Electorate electorate, Map<NodeId, Promise> promises, Proposal inDoubt) {
        Decree latest = Decree.NONE;
        for (Promise p : promises.values()) {
            Decree c = p.committed();
            if (c.ballot().isAfter(latest.ballot()) || c.ballot().equals(latest.ballot()) && latest.isPruned() && !c.isPruned())
                latest = c;
        }
        boolean someStale = false;
        for (Promise p : promises.values()) if (p.committed().ballot().isBefore(latest.ballot())) someStale = true;

        // Distinct accepted proposals after the latest decree, highest ballot first.
        TreeMap<Ballot, Proposal> candidates = new TreeMap<>(Comparator.reverseOrder());
        for (Promise p : promises.values()) {
            Proposal a = p.accepted();
            if (a != null && a.ballot().isAfter(latest.ballot())) candidates.putIfAbsent(a.ballot(), a);
        }
        List<Ballot> dead = new ArrayList<>();
        Proposal replay = null;
        for (Proposal c : candidates.values()) {
            if (committedOrigin(promises, c.origin()) != null) break; // decided and applied somewhere: nothing to finish
            if (c.isChecked() && isDead(electorate, promises, c)) {
                dead.add(c.origin());
                continue; // never chosen: the next highest decides (its acceptors applied its predecessor, §5.7)
            }
            if (!c.isEmpty()) replay = c; // an empty proposal needs no finishing: it changes nothing
            break;
        }

        InDoubtFate fate = InDoubtFate.NONE;
        Decree inDoubtDecree = null;
        if (inDoubt != null) {
            Ballot origin = inDoubt.origin();
            Decree committed = committedOrigin(promises, origin);
            if (committed != null) {
                fate = InDoubtFate.APPLIED;
                inDoubtDecree = committed;
            } else if ((committed = rememberedApplied(promises, inDoubt)) != null) {
                fate = InDoubtFate.APPLIED;
                inDoubtDecree = committed;
            } else if (replay != null && replay.origin().equals(origin)) {
                fate = InDoubtFate.REPLAYING;
            } else if (dead.contains(origin) || neverAccepted(electorate, promises, inDoubt)
                    || invisible(promises, inDoubt) && latest.ballot().isAfter(inDoubt.ballot())) {
                fate = InDoubtFate.NOT_APPLIED;
            } else if (invisible(promises, inDoubt)) {
                fate = InDoubtFate.NOT_APPLIED_ONCE_DECIDED;
            } else {
                fate = InDoubtFate.UNKNOWN;
            }
        }
        return new PromiseAnalysis(latest, someStale, replay, List.copyOf(dead), fate, inDoubtDecree);
    }

    private static Decree committedOrigin(Map<NodeId, Promise> promises, Ballot origin) {
        Decree found = null;
        for (Promise p : promises.values()) {
            Decree c = p.committed();
            if (!c.ballot().isZero() && c.origin().equals(origin) && (found == null || found.isPruned() && !c.isPruned()))
                found = c;
        }
        return found;
    }

    /**
     * A checked proposal can never be chosen once enough promising replicas neither hold its origin nor have the
     * plain-write version it expects: they refuse it and every re-proposal of it forever, because versions never
     * return to an earlier value and they will not accept its own (earlier) ballot after promising ours (§5.7).
     */
    static boolean isDead(Electorate electorate, Map<NodeId, Promise> promises, Proposal checked) {
        int excluded = 0;
        for (Map.Entry<NodeId, Promise> e : promises.entrySet()) {
            Promise p = e.getValue();
            boolean holds = p.accepted() != null && p.accepted().origin().equals(checked.origin());
            if (holds) continue;
            Long expected = checked.expectedVersions().get(e.getKey());
            if (expected == null || expected != p.read().plainVersion()) excluded++;
        }
        return excluded >= electorate.blocking();
    }

    /** The decree that applied the proposal's entries, if some replica remembers applying it. */
    private static Decree rememberedApplied(Map<NodeId, Promise> promises, Proposal proposal) {
        for (Promise p : promises.values())
            for (ballot.paxos.RecentDecrees.Id id : p.recent().ids())
                if (id.origin().equals(proposal.origin())) return new Decree(id.ballot(), id.origin(), proposal.entries());
        return null;
    }

    /**
     * No member of this quorum applied the proposal, and each remembers every decree it applied since the proposal's
     * ballot: so it is not decided. Had it been, either it is the latest decree, and a quorum member still holds it
     * (as the highest accepted, which the caller checks first) or has applied it; or a later decree was decided, whose
     * acceptors — a quorum, meeting this one — all applied it first (§4.10, §5.2). Once any decree after its ballot is
     * decided, it never can be.
     */
    private static boolean invisible(Map<NodeId, Promise> promises, Proposal proposal) {
        for (Promise p : promises.values()) {
            if (!p.recent().covers(proposal.ballot()) || p.recent().containsOrigin(proposal.origin())) return false;
            if (!p.committed().ballot().isZero() && p.committed().origin().equals(proposal.origin())) return false;
        }
        return true;
    }

    /** Every replica answered and none ever accepted anything at or after the proposal's ballot. */
    private static boolean neverAccepted(Electorate electorate, Map<NodeId, Promise> promises, Proposal proposal) {
        if (promises.size() < electorate.size()) return false;
        for (Promise p : promises.values()) {
            if (p.accepted() != null && !p.accepted().ballot().isBefore(proposal.ballot())) return false;
            if (!p.committed().ballot().isBefore(proposal.ballot())) return false;
            if (!p.recent().covers(proposal.ballot())) return false; // purged registers forgot what they applied (§4.13)
        }
        return true;
    }
}

package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Rejected;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Phase 2 of one proposal (docs/paxos.md §4.5): collects acceptances until a quorum accepted (decided) or a quorum
 * became impossible among the replicas it was sent to. When the coordinator's own replica votes first (§4.6.1), the
 * other recipients are held back until it has answered, and their proposal then says whether accepting decides.
 */
final class ProposeRound {
    final PaxosKey key;
    final Proposal proposal;
    final Ballot promiseNext;
    /** A decree every replica applied: it travels with the first sending to each recipient (§4.7). */
    final Ballot pruneUpTo;
    final Set<NodeId> recipients;
    final Electorate electorate;
    final Map<NodeId, Accepted> accepts = new LinkedHashMap<>();
    final Map<NodeId, Rejected> rejections = new LinkedHashMap<>();
    /** Recipients that waited for the coordinator's own replica's vote and have not been sent the proposal yet. */
    private final Set<NodeId> heldBack = new LinkedHashSet<>();
    private final Set<NodeId> sent = new LinkedHashSet<>();
    /** Recipients sent a proposal whose acceptance decides it: they apply the decree as they accept it. */
    final Set<NodeId> applyingOnAccept = new LinkedHashSet<>();

    ProposeRound(PaxosKey key, Proposal proposal, Ballot promiseNext, Ballot pruneUpTo, Set<NodeId> recipients,
            Electorate electorate) {
        this.key = key;
        this.proposal = proposal;
        this.promiseNext = promiseNext;
        this.pruneUpTo = pruneUpTo;
        this.recipients = new LinkedHashSet<>(recipients);
        this.electorate = electorate;
    }

    /** Every recipient but {@code first} waits until {@link #released} says {@code first} has voted. */
    void holdBackAllBut(NodeId first) {
        heldBack.addAll(recipients);
        heldBack.remove(first);
    }

    /** The held-back recipients, to send now: {@code first} voted, or the round stopped waiting for it. */
    List<NodeId> released() {
        List<NodeId> released = List.copyOf(heldBack);
        heldBack.clear();
        return released;
    }

    /** The first voter refused: the held-back recipients will never be sent this proposal. Returns whether any were. */
    boolean withdrawHeldBack() {
        boolean any = recipients.removeAll(heldBack);
        heldBack.clear();
        return any;
    }

    /** Whether {@code node} is waiting for the first vote, not sent anything yet. */
    boolean heldBack(NodeId node) {
        return heldBack.contains(node);
    }

    /**
     * The proposal for {@code to}. Its acceptance decides if a quorum less one of the other voters already accepted
     * this ballot, durably (an {@code Accepted} follows its persist, §4.12): the recipient completes a quorum (§4.6.1).
     */
    Propose proposeTo(NodeId to) {
        heldBack.remove(to);
        Ballot prune = sent.add(to) ? pruneUpTo : null;
        Propose.Decides decides = Propose.Decides.NO;
        if (electorate.sole()) {
            decides = Propose.Decides.SOLE;
        } else if (!proposal.isEmpty() && electorate.isVoter(to)) {
            int others = 0;
            for (NodeId n : accepts.keySet()) if (!n.equals(to) && electorate.isVoter(n)) others++;
            if (others >= electorate.quorum() - 1) {
                decides = Propose.Decides.ON_ACCEPT;
                applyingOnAccept.add(to);
            }
        }
        return new Propose(key, proposal, promiseNext, prune, decides);
    }

    boolean add(NodeId from, Accepted accepted) {
        if (!accepted.ballot().equals(proposal.ballot()) || !recipients.contains(from) || replied(from)) return false;
        accepts.put(from, accepted);
        return true;
    }

    boolean add(NodeId from, Rejected rejected) {
        if (!rejected.ballot().equals(proposal.ballot()) || rejected.phase() != Rejected.Phase.PROPOSE
                || !recipients.contains(from) || replied(from)) return false;
        rejections.put(from, rejected);
        return true;
    }

    boolean replied(NodeId node) {
        return accepts.containsKey(node) || rejections.containsKey(node);
    }

    /** The partition has one replica: its acceptance decides, and it applies the decree in the same write (§4.6). */
    boolean sole() {
        return electorate.sole();
    }

    boolean decided() {
        return accepts.size() >= electorate.quorum();
    }

    /**
     * Whether a quorum of acceptances is out of reach: the acceptances so far and the recipients that may still answer
     * are too few; a recipient the failure detector ({@code alive}) holds down is not waited for (as in
     * {@link PrepareRound#blocked}).
     */
    boolean blocked(Predicate<NodeId> alive) {
        int reachable = accepts.size();
        for (NodeId n : recipients) if (!replied(n) && alive.test(n)) reachable++;
        return reachable < electorate.quorum();
    }

    boolean promisedNextByQuorum() {
        return promiseNext != null && accepts.values().stream().filter(Accepted::promisedNext).count() >= electorate.quorum();
    }

    Set<NodeId> silent() {
        Set<NodeId> silent = new LinkedHashSet<>(recipients);
        silent.removeAll(accepts.keySet());
        silent.removeAll(rejections.keySet());
        return silent;
    }

    /** Recipients expected to apply the decree on acceptance that have not refused it: they need no commit message. */
    Set<NodeId> applyingWithoutRefusal() {
        Set<NodeId> nodes = new LinkedHashSet<>(applyingOnAccept);
        nodes.removeAll(rejections.keySet());
        return nodes;
    }

    Set<NodeId> rejectedFor(Rejected.Reason reason) {
        Set<NodeId> nodes = new LinkedHashSet<>();
        rejections.forEach((node, r) -> { if (r.reason() == reason) nodes.add(node); });
        return nodes;
    }
}

package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.Proposal;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Rejected;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Phase 2 of one proposal (docs/paxos.md §4.5): collects acceptances until a quorum accepted (decided) or a quorum
 * became impossible among the replicas it was sent to.
 */
final class ProposeRound {
    final Proposal proposal;
    final Ballot promiseNext;
    final Set<NodeId> recipients;
    final Electorate electorate;
    final Map<NodeId, Accepted> accepts = new LinkedHashMap<>();
    final Map<NodeId, Rejected> rejections = new LinkedHashMap<>();

    ProposeRound(Proposal proposal, Ballot promiseNext, Set<NodeId> recipients, Electorate electorate) {
        this.proposal = proposal;
        this.promiseNext = promiseNext;
        this.recipients = new LinkedHashSet<>(recipients);
        this.electorate = electorate;
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

    boolean blocked() {
        return recipients.size() - rejections.size() < electorate.quorum();
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

    Set<NodeId> rejectedFor(Rejected.Reason reason) {
        Set<NodeId> nodes = new LinkedHashSet<>();
        rejections.forEach((node, r) -> { if (r.reason() == reason) nodes.add(node); });
        return nodes;
    }
}

package ballot.paxos.spi;

import ballot.paxos.NodeId;
import ballot.paxos.message.Message;

/**
 * Internode messaging as the protocol needs it: fire-and-forget, unordered, possibly lost or duplicated (the core
 * retransmits and every handler is idempotent, docs/paxos.md §4.11). Sending to oneself must work; the server should
 * short-cut it to a local call on the partition's executor.
 */
public interface Transport {
    void send(NodeId to, Message message);

    /**
     * The failure detector's current belief: requests are answered UNAVAILABLE before an attempt without enough live
     * replicas, and a round neither waits for a voter held down nor counts on it for a quorum (§4.2, §4.9).
     */
    boolean isAlive(NodeId node);
}

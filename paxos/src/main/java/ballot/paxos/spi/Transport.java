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

    /** The failure detector's current belief; used only to answer UNAVAILABLE before a round starts (§4.10). */
    boolean isAlive(NodeId node);
}

package ballot.net;

import java.net.InetSocketAddress;
import java.util.UUID;

/**
 * Decides at the handshake whether a peer that says it is {@code hostId} at {@code address} may connect. Membership
 * installs one that refuses a host id held by a different live address, or an address held by a different live host
 * id. Called on a network thread: it must be quick and must not block.
 */
@FunctionalInterface
public interface PeerValidator {
    PeerValidator ACCEPT_ALL = (hostId, address) -> null;

    /** Returns why the peer is refused, or null to accept it. */
    String refusal(UUID hostId, InetSocketAddress address);
}

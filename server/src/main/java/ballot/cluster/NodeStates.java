package ballot.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.UUID;

/** How {@link NodeInfo} fields are written as application state values, and read back. */
final class NodeStates {
    private NodeStates() {}

    /** The node as membership reports it, or null while its state lacks what a member needs. */
    static NodeInfo info(EndpointState state) {
        if (state == null || !state.states().keySet().containsAll(GossipRules.REQUIRED)) return null;
        try {
            InetSocketAddress internode = address(state.get(AppState.INTERNODE));
            InetSocketAddress nativeAddress = address(state.get(AppState.NATIVE));
            String schema = state.get(AppState.SCHEMA);
            return new NodeInfo(state.hostId(), internode, nativeAddress.getAddress(), nativeAddress.getPort(),
                    state.get(AppState.DC), state.get(AppState.RACK), tokens(state.get(AppState.TOKENS)),
                    status(state), schema == null ? null : UUID.fromString(schema), state.get(AppState.RELEASE_VERSION));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static NodeStatus status(EndpointState state) {
        String status = state == null ? null : state.get(AppState.STATUS);
        if (status == null) return null;
        try {
            return NodeStatus.valueOf(status);
        } catch (IllegalArgumentException e) {
            return null; // a status a newer version added: not one we can act on
        }
    }

    static boolean left(EndpointState state) {
        return status(state) == NodeStatus.LEFT;
    }

    /** A LEFT state past its expiry (or without one): to be forgotten, and not learned again. */
    static boolean expired(EndpointState state, long nowMillis) {
        if (!left(state)) return false;
        String expires = state.get(AppState.LEFT_EXPIRES);
        try {
            return expires == null || Long.parseLong(expires) <= nowMillis;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    static boolean shutdown(EndpointState state) {
        return state != null && "true".equals(state.get(AppState.SHUTDOWN));
    }

    static long load(EndpointState state) {
        String load = state == null ? null : state.get(AppState.LOAD);
        if (load == null) return -1;
        try {
            return Long.parseLong(load);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String address(InetSocketAddress address) {
        String ip = address.getAddress().getHostAddress();
        return (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + address.getPort();
    }

    static InetSocketAddress address(String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) throw new IllegalArgumentException("address without port: " + value);
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        try {
            // a literal IP: no name lookup happens
            return new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(value.substring(colon + 1)));
        } catch (UnknownHostException | NumberFormatException e) {
            throw new IllegalArgumentException("bad address " + value + ": " + e.getMessage(), e);
        }
    }

    static String tokens(List<Long> tokens) {
        StringJoiner joiner = new StringJoiner(",");
        for (long token : tokens) joiner.add(Long.toString(token));
        return joiner.toString();
    }

    static List<Long> tokens(String value) {
        List<Long> tokens = new ArrayList<>();
        if (value.isEmpty()) return List.of();
        for (String token : value.split(",")) tokens.add(Long.parseLong(token));
        return List.copyOf(tokens);
    }
}

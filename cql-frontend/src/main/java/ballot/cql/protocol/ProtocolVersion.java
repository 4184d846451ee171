package ballot.cql.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * Native protocol versions this node speaks. Versions 1 and 2 are known but refused; anything else is unknown.
 * The texts below are what drivers match on during negotiation (see {@link #unsupportedMessage(int)}), so they
 * follow Cassandra 4/5 exactly.
 */
public enum ProtocolVersion {
    V3(3),
    V4(4),
    V5(5);

    /** The version an envelope is answered in when its own version is unknown and the connection has none yet. */
    public static final ProtocolVersion CURRENT = V5;
    /** values() copies the array on every call; envelopes look versions up often. */
    private static final ProtocolVersion[] VALUES = values();

    private final int code;

    ProtocolVersion(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** As listed in SUPPORTED's PROTOCOL_VERSIONS and in version errors: {@code 5/v5}. No version is beta. */
    public String label() {
        return code + "/v" + code;
    }

    public boolean isAtLeast(ProtocolVersion other) {
        return code >= other.code;
    }

    /** From v5 on, everything after the STARTUP exchange travels in CRC-protected segments (native_protocol_v5.spec §2). */
    public boolean usesSegments() {
        return isAtLeast(V5);
    }

    /** @return the version with this code, or null when the code is unsupported */
    public static ProtocolVersion fromCode(int code) {
        for (ProtocolVersion v : VALUES) if (v.code == code) return v;
        return null;
    }

    /**
     * Versions 1 and 2 were real protocol versions that Cassandra still recognises: their rejection is written in that
     * same old version, so that old clients can read it. Any other unsupported version is answered in the
     * connection's version (or {@link #CURRENT}).
     */
    public static boolean isKnownObsolete(int code) {
        return code == 1 || code == 2;
    }

    public static List<String> labels() {
        List<String> labels = new ArrayList<>();
        for (ProtocolVersion v : values()) labels.add(v.label());
        return List.copyOf(labels);
    }

    /**
     * The Java driver downgrades only when the message contains "Invalid or unsupported protocol version", the
     * Python driver when it contains "unsupported protocol version"; keep this text.
     */
    public static String unsupportedMessage(int code) {
        return "Invalid or unsupported protocol version (" + code + "); supported versions are ("
                + String.join(", ", labels()) + ")";
    }
}

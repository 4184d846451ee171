package ballot.cql.transport;

import ballot.cql.protocol.message.PreparedMetadata;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ScyllaDB's extensions of the native protocol that this server implements (scylladb docs/dev/protocol-extensions.md).
 * Each is advertised in SUPPORTED under its key, with its parameters as {@code NAME=VALUE} strings, and is in force on a
 * connection only if the client names the key in STARTUP. The value sent with the key in STARTUP is ignored, as ScyllaDB
 * ignores it (drivers send the mask, signed or not).
 */
public enum ProtocolExtension {
    /**
     * PREPARED marks conditional statements with {@link PreparedMetadata#LWT_FLAG} in the prepared metadata flags, so
     * drivers can send every LWT on a partition to its first replica, where they queue instead of contending in Paxos.
     */
    LWT_ADD_METADATA_MARK("SCYLLA_LWT_ADD_METADATA_MARK",
            List.of("LWT_OPTIMIZATION_META_BIT_MASK=" + Integer.toUnsignedString(PreparedMetadata.LWT_FLAG)));

    private final String key;
    private final List<String> parameters;

    ProtocolExtension(String key, List<String> parameters) {
        this.key = key;
        this.parameters = parameters;
    }

    /** The key in SUPPORTED and STARTUP. */
    public String key() {
        return key;
    }

    /** The values of {@link #key()} in SUPPORTED. */
    public List<String> parameters() {
        return parameters;
    }

    /** The extensions a client asked for in its STARTUP options (keys upper-cased, as the codec delivers them). */
    static Set<ProtocolExtension> requestedIn(Map<String, String> startupOptions) {
        Set<ProtocolExtension> requested = EnumSet.noneOf(ProtocolExtension.class);
        for (ProtocolExtension extension : values())
            if (startupOptions.containsKey(extension.key)) requested.add(extension);
        return requested;
    }

    static boolean isKey(String key) {
        for (ProtocolExtension extension : values())
            if (extension.key.equals(key)) return true;
        return false;
    }
}

package ballot.tls;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code server_encryption_options}: TLS between nodes. */
public final class ServerEncryptionOptions extends EncryptionOptions {
    /** {@code none} or {@code all}; Cassandra's {@code dc} and {@code rack} are refused at start. */
    @JsonProperty("internode_encryption") public String internodeEncryption = "none";

    /**
     * Between nodes a certificate is required by default (Cassandra's default is false): otherwise any client that
     * trusts the cluster's CA could connect to a node as a peer.
     */
    public ServerEncryptionOptions() {
        requireClientAuth = true;
    }

    public boolean enabled() {
        return internodeEncryption.equals("all");
    }

    /** The message names the setting; the key stores are checked when the contexts are built. */
    public void validate() {
        if (!internodeEncryption.equals("none") && !internodeEncryption.equals("all"))
            throw new IllegalArgumentException("server_encryption_options.internode_encryption must be 'none' or 'all', was '"
                    + internodeEncryption + "' (Ballot does not build Cassandra's 'dc' and 'rack')");
    }
}

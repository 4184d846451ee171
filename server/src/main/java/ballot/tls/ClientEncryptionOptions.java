package ballot.tls;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code client_encryption_options}: TLS on the CQL port. */
public final class ClientEncryptionOptions extends EncryptionOptions {
    @JsonProperty("enabled") public boolean enabled;
    /** With enabled: plaintext clients are served on the same port too, told apart by their first bytes. */
    @JsonProperty("optional") public boolean optional;
}

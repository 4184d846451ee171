package ballot.tls;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys that {@code client_encryption_options} and {@code server_encryption_options} share, named as in
 * cassandra.yaml. {@link TlsContexts} turns them into a TLS context; docs/tls.md describes each.
 */
public class EncryptionOptions {
    /** The node's certificate chain and private key. */
    @JsonProperty("keystore") public String keystore;
    @JsonProperty("keystore_password") public String keystorePassword;
    /** The certificates (usually one CA) that the peer's certificate must be signed by. */
    @JsonProperty("truststore") public String truststore;
    @JsonProperty("truststore_password") public String truststorePassword;
    /** Whether the side that accepts connections demands a certificate signed by the truststore's CA. */
    @JsonProperty("require_client_auth") public boolean requireClientAuth;
    /** "TLS" (the default) lets the JDK choose; a version such as "TLSv1.3" is the only one accepted unless accepted_protocols is set. */
    @JsonProperty("protocol") public String protocol = "TLS";
    @JsonProperty("accepted_protocols") public List<String> acceptedProtocols = new ArrayList<>();
    /** Empty: the JDK's default suites. */
    @JsonProperty("cipher_suites") public List<String> cipherSuites = new ArrayList<>();
    /** JKS or PKCS12; unset: JKS for a file named *.jks, else PKCS12. */
    @JsonProperty("store_type") public String storeType;
    /** auto (OpenSSL when netty-tcnative's library loads here, else the JDK), openssl or jdk; {@link TlsContexts#provider}. */
    @JsonProperty("ssl_provider") public String sslProvider = "auto";
}

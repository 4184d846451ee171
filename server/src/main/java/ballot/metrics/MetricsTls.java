package ballot.metrics;

import ballot.tls.TlsContexts;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context of the metrics port ({@code metrics_encryption_options}, docs/metrics.md): the node's key and
 * certificate from a PKCS12 or JKS key store, and the certificates it trusts when it reads its peers' consoles. The
 * same context serves the endpoint and calls the peers, which share the node's metrics settings.
 */
public final class MetricsTls {
    private MetricsTls() {}

    /** A key store file, its password and its type ({@code PKCS12} or {@code JKS}). */
    public record StoreFile(Path path, String password, String type) {}

    /**
     * @param trust the certificates peers' endpoints must present (a chain ending at one of them); null: trust the
     *              certificates in {@code keys}, as when every node has the same key store or its CA's certificate
     * @throws IllegalArgumentException naming the file when a store cannot be read (missing, wrong password or type)
     */
    public static SSLContext context(StoreFile keys, StoreFile trust) {
        KeyStore keyStore = load(keys, "keystore");
        KeyStore trustStore = trust == null ? keyStore : load(trust, "truststore");
        try {
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keyStore, keys.password().toCharArray());
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trustStore);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("metrics_encryption_options: cannot use the keys in " + keys.path() + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore load(StoreFile store, String setting) {
        return TlsContexts.keyStore("metrics_encryption_options", setting, store.path().toString(), store.password(), store.type(),
                "the metrics port serves HTTPS");
    }
}

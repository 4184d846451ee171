package ballot.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Turns one section of encryption options into a Netty {@link SslContext}: the one place where TLS settings become a
 * context, for CQL clients and for internode traffic alike. Every problem (a missing file, a wrong password, an unknown
 * protocol or cipher) is an {@link IllegalArgumentException} naming the setting, raised here at the node's start rather
 * than at a first connection. TLS runs on OpenSSL (netty-tcnative's BoringSSL) where its native library loads, on the
 * JDK's implementation otherwise, unless {@code ssl_provider} names one.
 */
public final class TlsContexts {
    private TlsContexts() {}

    /**
     * The context of the side that accepts connections: it presents the keystore's certificate and, with
     * require_client_auth, demands one signed by the truststore's CA.
     *
     * @param section the YAML key of the options, for messages ({@code client_encryption_options})
     */
    public static SslContext server(EncryptionOptions options, String section) {
        SslContextBuilder builder = SslContextBuilder.forServer(keyManagers(options, section));
        if (options.requireClientAuth) {
            builder.trustManager(trustManagers(options, section, "require_client_auth is true"));
            builder.clientAuth(ClientAuth.REQUIRE);
        }
        return build(builder, options, section);
    }

    /**
     * The context of the side that connects (a node to its peer): it verifies the peer's certificate against the
     * truststore and presents its own, for peers that require one. It does not check that the certificate names the
     * peer's address (Cassandra's {@code require_endpoint_verification: false}, the only mode built: docs/tls.md);
     * Netty 4.2 would, unless told not to.
     */
    public static SslContext client(EncryptionOptions options, String section) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .endpointIdentificationAlgorithm(null)
                .keyManager(keyManagers(options, section))
                .trustManager(trustManagers(options, section, "nodes verify each other's certificates"));
        return build(builder, options, section);
    }

    /**
     * The implementation {@code ssl_provider} asks for: {@code auto} (the default) is OpenSSL when netty-tcnative's
     * library loads on this machine (Linux on x86_64 and aarch64), the JDK's TLS otherwise; {@code openssl} insists.
     */
    public static SslProvider provider(EncryptionOptions options, String section) {
        String wanted = options.sslProvider == null ? "auto" : options.sslProvider.toLowerCase(Locale.ROOT);
        return switch (wanted) {
            case "auto" -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            case "jdk" -> SslProvider.JDK;
            case "openssl" -> {
                if (!OpenSsl.isAvailable())
                    throw new IllegalArgumentException(section + ".ssl_provider is openssl, but netty-tcnative's OpenSSL does not load here: "
                            + OpenSsl.unavailabilityCause() + " (use auto or jdk)");
                yield SslProvider.OPENSSL;
            }
            default -> throw new IllegalArgumentException(section + ".ssl_provider is '" + options.sslProvider
                    + "'; must be auto, openssl or jdk");
        };
    }

    /** For the node's log: which implementation serves the section, and its library's version. */
    public static String describe(EncryptionOptions options, String section) {
        return provider(options, section) == SslProvider.OPENSSL
                ? "OpenSSL (" + OpenSsl.versionString() + ", netty-tcnative)" : "the JDK's TLS (" + System.getProperty("java.version") + ")";
    }

    private static SslContext build(SslContextBuilder builder, EncryptionOptions options, String section) {
        List<String> protocols = protocols(options);
        builder.sslProvider(provider(options, section)).ciphers(options.cipherSuites.isEmpty() ? null : options.cipherSuites);
        if (protocols != null) builder.protocols(protocols);
        SslContext context;
        try {
            context = builder.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException(section + ": cannot build a TLS context: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) { // OpenSSL checks protocols and cipher suites here
            throw badProtocolsOrCiphers(section, protocols, options, e);
        }
        // The JDK checks protocols and cipher suites only when an engine is made: make one now.
        SSLEngine probe = null;
        try {
            probe = context.newEngine(ByteBufAllocator.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw badProtocolsOrCiphers(section, protocols, options, e);
        } finally {
            ReferenceCountUtil.release(probe);
        }
        return context;
    }

    private static IllegalArgumentException badProtocolsOrCiphers(String section, List<String> protocols, EncryptionOptions options,
            IllegalArgumentException e) {
        return new IllegalArgumentException(section + ".protocol, accepted_protocols or cipher_suites: " + e.getMessage()
                + " (protocols " + protocols + ", cipher_suites " + options.cipherSuites + ")", e);
    }

    /** accepted_protocols if set; else protocol if it names a version; else null: the JDK's defaults. */
    private static List<String> protocols(EncryptionOptions options) {
        if (!options.acceptedProtocols.isEmpty()) return options.acceptedProtocols;
        if (options.protocol != null && !options.protocol.equalsIgnoreCase("TLS")) return Collections.singletonList(options.protocol);
        return null;
    }

    private static KeyManagerFactory keyManagers(EncryptionOptions options, String section) {
        KeyStore store = keyStore(section, "keystore", options.keystore, options.keystorePassword, options.storeType, "the node presents its certificate");
        try {
            boolean holdsKey = false;
            for (String alias : Collections.list(store.aliases())) holdsKey |= store.isKeyEntry(alias);
            if (!holdsKey)
                throw new IllegalArgumentException(section + ".keystore " + options.keystore + " holds no private key");
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, password(options.keystorePassword));
            return factory;
        } catch (UnrecoverableKeyException e) {
            throw new IllegalArgumentException(section + ".keystore_password does not open the private key in " + options.keystore, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(section + ".keystore " + options.keystore + ": " + e.getMessage(), e);
        }
    }

    private static TrustManagerFactory trustManagers(EncryptionOptions options, String section, String why) {
        KeyStore store = keyStore(section, "truststore", options.truststore, options.truststorePassword, options.storeType, why);
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(section + ".truststore " + options.truststore + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a key store of {@code section} (the CQL port's, the internode's, the metrics port's); {@code key} is its
     * setting's name, {@code why} says why it is needed when it is missing.
     */
    public static KeyStore keyStore(String section, String key, String path, String password, String storeType, String why) {
        if (path == null || path.isBlank()) throw new IllegalArgumentException(section + "." + key + " must be set: " + why);
        Path file = Path.of(path);
        if (!Files.isReadable(file))
            throw new IllegalArgumentException(section + "." + key + ": cannot read " + file.toAbsolutePath());
        String type = storeType != null ? storeType.toUpperCase(Locale.ROOT) : path.endsWith(".jks") ? "JKS" : "PKCS12";
        if (!type.equals("JKS") && !type.equals("PKCS12"))
            throw new IllegalArgumentException(section + ".store_type must be JKS or PKCS12, was '" + storeType + "'");
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password(password));
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException)
                throw new IllegalArgumentException(section + "." + key + "_password does not open " + file + " (wrong password?)", e);
            throw new IllegalArgumentException(section + "." + key + ": cannot read " + file + " as " + type + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(section + "." + key + ": cannot read " + file + " as " + type + ": " + e.getMessage(), e);
        }
    }

    private static char[] password(String password) {
        return password == null ? null : password.toCharArray();
    }
}

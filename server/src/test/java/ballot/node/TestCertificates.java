package ballot.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority made at run time with the JDK's keytool (no key is committed), and PKCS12 key stores
 * holding certificates it signs: {@code truststore.p12} with the CA's certificate, and {@code <name>.p12} with the
 * private key and certificate chain of each name asked for. Every store's password is {@link #PASSWORD}.
 */
final class TestCertificates {
    static final String PASSWORD = "changeit";

    private final Path directory;
    private final String caName;

    private TestCertificates(Path directory, String caName) {
        this.directory = directory;
        this.caName = caName;
    }

    /** A new CA named {@code caName} in {@code directory}, and its truststore. */
    static TestCertificates authority(Path directory, String caName) {
        TestCertificates ca = new TestCertificates(directory, caName);
        ca.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + caName,
                "-ext", "bc:c", "-validity", "2", "-keystore", ca.caStore().toString(), "-storetype", "PKCS12");
        ca.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.caStore().toString(), "-file", ca.caCertificate().toString());
        ca.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.caCertificate().toString(),
                "-keystore", ca.truststore().toString(), "-storetype", "PKCS12");
        return ca;
    }

    /** The CA's certificate as a trusted entry: what nodes and clients verify their peers against. */
    Path truststore() {
        return directory.resolve(caName + "-truststore.p12");
    }

    /** A key store with a new key for {@code name} (CN={@code name}, valid for 127.0.0.0/8 names) signed by this CA. */
    Path keystore(String name) {
        Path store = directory.resolve(name + ".p12");
        Path request = directory.resolve(name + ".csr");
        Path certificate = directory.resolve(name + ".pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12");
        keytool("-certreq", "-alias", name, "-keystore", store.toString(), "-file", request.toString());
        keytool("-gencert", "-alias", "ca", "-keystore", caStore().toString(), "-infile", request.toString(),
                "-outfile", certificate.toString(), "-rfc", "-validity", "2", "-ext", "san=dns:localhost,ip:127.0.0.1");
        // The reply's issuer must be in the store for keytool to build the chain.
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caCertificate().toString(), "-keystore", store.toString());
        keytool("-importcert", "-alias", name, "-file", certificate.toString(), "-keystore", store.toString());
        return store;
    }

    /** A client's TLS context that trusts this CA and, if {@code keystore} is not null, presents its certificate. */
    SSLContext clientContext(Path keystore) {
        return clientContext(keystore, "TLS");
    }

    /** The same offering only the versions the JDK's {@code protocol} context does ("TLSv1.2": TLS 1.2 and older). */
    SSLContext clientContext(Path keystore, String protocol) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(truststore()));
            KeyManagerFactory keys = null;
            if (keystore != null) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(keystore), PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance(protocol);
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore load(Path file) throws GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path caStore() {
        return directory.resolve(caName + ".p12");
    }

    private Path caCertificate() {
        return directory.resolve(caName + ".pem");
    }

    private void keytool(String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storepass", PASSWORD)); // a PKCS12 key's password is the store's
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
                throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

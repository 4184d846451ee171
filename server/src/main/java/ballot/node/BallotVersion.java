package ballot.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Ballot's own version: the Maven project version, which the build writes into {@code ballot/node/version.properties}. */
public final class BallotVersion {
    private static final String VERSION = read();

    private BallotVersion() {}

    public static String get() {
        return VERSION;
    }

    private static String read() {
        try (InputStream in = BallotVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) throw new IllegalStateException("ballot/node/version.properties is missing from the build");
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package ballot.tools.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** The CLI's own Ballot version: the Maven project version, which the build writes into {@code version.properties}. */
final class CliVersion implements CommandLine.IVersionProvider {
    static String get() {
        try (InputStream in = CliVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) throw new IllegalStateException("ballot/tools/admin/version.properties is missing from the build");
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"ballot-admin " + get()};
    }
}

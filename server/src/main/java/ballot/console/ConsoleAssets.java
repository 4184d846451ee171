package ballot.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The console's static files, read from the jar once: the page, its script and style, and uPlot from its WebJar
 * (org.webjars.npm:uplot, bundled at build time). Nothing is fetched from elsewhere at run time.
 */
final class ConsoleAssets {
    /** A file to serve: its bytes and its Content-Type. */
    record Asset(byte[] body, String contentType) {}

    private static final String HTML = "text/html; charset=utf-8";
    private static final String JS = "text/javascript; charset=utf-8";
    private static final String CSS = "text/css; charset=utf-8";

    private final Map<String, Asset> byPath;

    ConsoleAssets() {
        String uplot = "/META-INF/resources/webjars/uplot/" + webJarVersion("uplot") + "/dist/";
        byPath = Map.of(
                "/console", load("/ballot/console/index.html", HTML),
                "/console/console.js", load("/ballot/console/console.js", JS),
                "/console/console.css", load("/ballot/console/console.css", CSS),
                "/console/uPlot.iife.min.js", load(uplot + "uPlot.iife.min.js", JS),
                "/console/uPlot.min.css", load(uplot + "uPlot.min.css", CSS));
    }

    /** The asset at {@code path} ({@code /console/} is the page too), or null. */
    Asset at(String path) {
        return byPath.get(path.equals("/console/") ? "/console" : path);
    }

    private static String webJarVersion(String artifact) {
        Properties pom = new Properties();
        try (InputStream in = stream("/META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties")) {
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version");
    }

    private static Asset load(String resource, String contentType) {
        try (InputStream in = stream(resource)) {
            return new Asset(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream stream(String resource) {
        InputStream in = ConsoleAssets.class.getResourceAsStream(resource);
        if (in == null) throw new IllegalStateException("console resource " + resource + " is not in the jar; the build left it out");
        return in;
    }
}

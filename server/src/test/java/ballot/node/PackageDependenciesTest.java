package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server's packages depend on each other one way only (STYLE.md §1): no package reaches itself through its
 * imports. In particular Paxos ({@code ballot.lwt}) and the plain read and write paths ({@code ballot.replication})
 * know nothing of each other; the node ({@code ballot.node}) wires them.
 */
class PackageDependenciesTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(ballot\\.[a-z.]+)\\.[A-Z]", Pattern.MULTILINE);

    @Test
    void serverPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> imports = imports();
        List<String> cycles = new ArrayList<>();
        for (String p : imports.keySet()) {
            List<String> path = pathBack(imports, p);
            if (path != null) cycles.add(String.join(" -> ", path));
        }
        assertThat(imports).as("packages found under " + MAIN.toAbsolutePath()).containsKeys("ballot.lwt", "ballot.replication");
        assertThat(cycles).isEmpty();
    }

    /** A chain of imports from {@code start} back to itself, or null. */
    private static List<String> pathBack(Map<String, Set<String>> imports, String start) {
        List<String> path = new ArrayList<>(List.of(start));
        return search(imports, start, start, path, new TreeSet<>()) ? path : null;
    }

    private static boolean search(Map<String, Set<String>> imports, String at, String start, List<String> path, Set<String> seen) {
        for (String next : imports.getOrDefault(at, Set.of())) {
            path.add(next);
            if (next.equals(start)) return true;
            if (seen.add(next) && search(imports, next, start, path, seen)) return true;
            path.remove(path.size() - 1);
        }
        return false;
    }

    /** For each package of the module, the other packages of the module its classes import. */
    private static Map<String, Set<String>> imports() throws IOException {
        Map<String, Set<String>> imports = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = MAIN.relativize(file.getParent()).toString().replace('/', '.');
                Set<String> used = imports.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    String imported = m.group(1);
                    if (!imported.equals(pkg) && Files.isDirectory(MAIN.resolve(imported.replace('.', '/')))) used.add(imported);
                }
            }
        }
        return imports;
    }
}

package ballot.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core stays pure (docs/txn.md §12, STYLE.md §1-2): it imports only the JDK and itself (no driver, Netty, RocksDB
 * or other Ballot module), and never reads the system clock, starts threads or uses unseeded randomness.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern IMPORT = Pattern.compile("^import (static )?([\\w.]+)", Pattern.MULTILINE);
    private static final List<String> BANNED_CALLS = List.of("System.nanoTime", "System.currentTimeMillis",
            "Instant.now", "new Thread", "Executors.", "ThreadLocalRandom", "Math.random", "new Random(", "synchronized");

    @Test
    void mainCodeImportsOnlyTheJdkAndItself() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            var m = IMPORT.matcher(Files.readString(file));
            while (m.find()) {
                String imported = m.group(2);
                if (!imported.startsWith("java.") && !imported.startsWith("ballot.txn."))
                    violations.add(MAIN.relativize(file) + " imports " + imported);
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void mainCodeTakesTimeThreadsAndRandomnessOnlyThroughTheSpi() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String text = Files.readString(file);
            for (String banned : BANNED_CALLS)
                if (text.contains(banned)) violations.add(MAIN.relativize(file) + " uses " + banned);
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void mainCodeLivesInBallotTxnPackages() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String text = Files.readString(file);
            if (!Pattern.compile("^package ballot\\.txn(\\.\\w+)*;", Pattern.MULTILINE).matcher(text).find())
                violations.add(MAIN.relativize(file) + " is outside ballot.txn");
        }
        assertThat(violations).isEmpty();
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<Path> java = files.filter(p -> p.toString().endsWith(".java")).toList();
            assertThat(java).as("main sources found under " + MAIN.toAbsolutePath()).isNotEmpty();
            return java;
        }
    }
}

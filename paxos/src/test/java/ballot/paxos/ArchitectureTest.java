package ballot.paxos;

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
 * The core stays pure (docs/paxos.md §9, STYLE.md §1-2): it imports nothing of ours outside ballot.paxos, no Netty or
 * RocksDB, and never reads the system clock, starts threads or uses unseeded randomness.
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
                boolean ok = imported.startsWith("java.") || imported.startsWith("ballot.paxos.");
                if (!ok) violations.add(MAIN.relativize(file) + " imports " + imported);
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

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<Path> java = files.filter(p -> p.toString().endsWith(".java")).toList();
            assertThat(java).as("main sources found under " + MAIN.toAbsolutePath()).isNotEmpty();
            return java;
        }
    }
}

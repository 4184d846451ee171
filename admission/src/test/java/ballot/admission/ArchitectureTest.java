package ballot.admission;

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
 * The admission core stays pure (docs/admission.md, STYLE.md §1-2): it imports nothing of ours outside
 * ballot.admission, no Netty or RocksDB, and takes time only as an input. It may lock (its one lock is in
 * GrantCoordinator), unlike the Paxos core, because many request threads share one queue.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern IMPORT = Pattern.compile("^import (static )?([\\w.]+)", Pattern.MULTILINE);
    private static final List<String> BANNED_CALLS = List.of("System.nanoTime", "System.currentTimeMillis",
            "Instant.now", "new Thread", "Executors.", "ThreadLocalRandom", "Math.random", "new Random(");

    @Test
    void mainCodeImportsOnlyTheJdkAndItself() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            var m = IMPORT.matcher(Files.readString(file));
            while (m.find()) {
                String imported = m.group(2);
                if (!imported.startsWith("java.") && !imported.startsWith("ballot.admission."))
                    violations.add(MAIN.relativize(file) + " imports " + imported);
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void mainCodeTakesTimeOnlyAsAnInputAndStartsNoThreads() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String text = Files.readString(file);
            for (String banned : BANNED_CALLS) if (text.contains(banned)) violations.add(MAIN.relativize(file) + " uses " + banned);
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void onlyTheCoordinatorLocks() throws IOException {
        List<String> locking = new ArrayList<>();
        for (Path file : sources())
            if (Files.readString(file).contains("synchronized")) locking.add(file.getFileName().toString());
        assertThat(locking).containsExactly("GrantCoordinator.java");
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<Path> java = files.filter(p -> p.toString().endsWith(".java")).toList();
            assertThat(java).as("main sources found under " + MAIN.toAbsolutePath()).isNotEmpty();
            return java;
        }
    }
}

package ballot.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Data-driven tests of the work queue and the slot granter with a simulated clock, in the manner of CockroachDB's
 * admission tests: each script under {@code src/test/resources/ballot/admission} is a list of commands, each followed
 * by {@code ----} and what it must print. Times are milliseconds. {@code -Dadmission.rewrite=true} writes what the code
 * prints into the scripts instead of checking it (then read the diff).
 *
 * <pre>
 * init slots=1 queue-max=3                 a coordinator (slots-min, slots-max, delay-target, lifo-threshold, epoch)
 * submit id=a tenant=ks priority=normal timeout=100 [start=T]
 * try id=a [tenant=ks]                     a grant right now, or none (nothing is queued)
 * release id=a                             the work's grant is released
 * advance ms=N · tick · executor-delay ms=N · print
 * </pre>
 */
class AdmissionScriptTest {
    private static final Path SCRIPTS = Path.of("src/test/resources/ballot/admission");
    private static final long MS = 1_000_000L;

    @TestFactory
    Stream<DynamicTest> scripts() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(SCRIPTS)) {
            files = list.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
        assertThat(files).as("scripts in " + SCRIPTS).isNotEmpty();
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> run(file)));
    }

    private void run(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        StringBuilder rewritten = new StringBuilder();
        Script script = new Script();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                rewritten.append(line).append('\n');
                i++;
                continue;
            }
            int commandLine = i + 1;
            String command = line;
            i++;
            assertThat(i < lines.size() && lines.get(i).equals("----")).as("%s:%d: '----' after the command", file, commandLine).isTrue();
            i++;
            List<String> expected = new ArrayList<>();
            while (i < lines.size() && !lines.get(i).isBlank()) expected.add(lines.get(i++));
            List<String> actual = script.execute(command);
            rewritten.append(command).append("\n----\n");
            for (String out : actual) rewritten.append(out).append('\n');
            if (!Boolean.getBoolean("admission.rewrite"))
                assertThat(actual).as("%s:%d: %s", file.getFileName(), commandLine, command).containsExactlyElementsOf(expected);
        }
        if (Boolean.getBoolean("admission.rewrite")) Files.writeString(file, rewritten.toString());
    }

    /** One script's coordinator, clock, works and what they heard. */
    private static final class Script {
        private long now = 1_000 * MS;
        private GrantCoordinator coordinator;
        private SlotGranter slots;
        private TokenGranter tokens;
        private final Map<String, Grant> grants = new HashMap<>();
        private final List<String> heard = new ArrayList<>();

        List<String> execute(String command) {
            String[] words = command.trim().split("\\s+");
            Map<String, String> args = new LinkedHashMap<>();
            for (int k = 1; k < words.length; k++) {
                String[] kv = words[k].split("=", 2);
                args.put(kv[0], kv.length > 1 ? kv[1] : "");
            }
            heard.clear();
            List<String> printed = new ArrayList<>();
            switch (words[0]) {
                case "init" -> {
                    int initial = Integer.parseInt(args.getOrDefault("slots", "1"));
                    AdmissionSettings settings = new AdmissionSettings(
                            Integer.parseInt(args.getOrDefault("queue-max", "100")), initial,
                            Integer.parseInt(args.getOrDefault("slots-min", "1")),
                            Integer.parseInt(args.getOrDefault("slots-max", String.valueOf(8 * initial))),
                            ms(args.getOrDefault("delay-target", "2")), ms(args.getOrDefault("lifo-threshold", "105")),
                            ms(args.getOrDefault("epoch", "100")));
                    Granter granter;
                    if (args.containsKey("write-floor")) {
                        granter = tokens = new TokenGranter(Long.parseLong(args.get("write-floor")), now);
                    } else {
                        granter = slots = new SlotGranter(settings);
                    }
                    coordinator = new GrantCoordinator(settings, granter, () -> now, AdmissionObserver.NONE);
                }
                case "submit" -> {
                    String id = args.get("id");
                    long start = args.containsKey("start") ? ms(args.get("start")) : now;
                    WorkInfo work = new WorkInfo(args.getOrDefault("tenant", "ks"),
                            Priority.named(args.getOrDefault("priority", "normal")), start, now + ms(args.getOrDefault("timeout", "1000")),
                            Long.parseLong(args.getOrDefault("bytes", "0")));
                    coordinator.submit(work, new Recorder(id));
                }
                case "try" -> {
                    Grant grant = coordinator.tryNow(new WorkInfo(args.getOrDefault("tenant", "ks"), Priority.NORMAL, now, now + ms("1000"), 0));
                    if (grant != null) grants.put(args.get("id"), grant);
                    printed.add(grant == null ? "no grant for " + args.get("id") : "granted " + args.get("id"));
                }
                case "release" -> grants.get(args.get("id")).release(); // kept: a script may release it again
                case "pause" -> grants.get(args.get("id")).pause();
                case "resume" -> grants.get(args.get("id")).resume();
                case "advance" -> now += ms(args.get("ms"));
                case "tick" -> coordinator.tick();
                case "executor-delay" -> slots.executorDelay(ms(args.get("ms")));
                case "storage" -> tokens.health(new StorageHealth(Long.parseLong(args.getOrDefault("l0", "0")), 20,
                        Long.parseLong(args.getOrDefault("pending", "0")), 1000, args.containsKey("delayed")));
                case "print" -> printed.addAll(coordinator.describe());
                default -> throw new IllegalArgumentException("unknown command: " + command);
            }
            List<String> out = new ArrayList<>(heard);
            out.addAll(printed);
            return out;
        }

        private static long ms(String value) {
            return Long.parseLong(value) * MS;
        }

        private final class Recorder implements Requester {
            private final String id;

            Recorder(String id) {
                this.id = id;
            }

            @Override
            public void admitted(Grant grant) {
                grants.put(id, grant);
                heard.add("admitted " + id);
            }

            @Override
            public void refused(Refusal why) {
                heard.add("refused " + id + " " + why.label());
            }

            @Override
            public String toString() {
                return id;
            }
        }
    }
}

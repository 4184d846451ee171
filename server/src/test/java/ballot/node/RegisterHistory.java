package ballot.node;

import ballot.paxos.sim.LinearizabilityChecker.Kind;
import ballot.paxos.sim.LinearizabilityChecker.Op;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What clients saw of one register (the row {@code k} of {@code (k int PRIMARY KEY, v int)}), in the terms of the
 * paxos module's {@code LinearizabilityChecker}: times are {@code System.nanoTime()} since the run began, an outcome
 * the client cannot know is unknown (it may take effect at any time after its invocation, or never), and an operation
 * known to have had no effect (UNAVAILABLE: nothing was sent) is not recorded at all, so a false "no effect" would
 * show as a value nobody wrote. Every write writes a value no other operation writes, and nothing deletes: the values
 * a register holds form one chain from absent, which is what makes the search fast and {@link #lostWrites} exact.
 */
final class RegisterHistory {
    final int register;
    private final List<Op> ops = new ArrayList<>();
    private int unknownWrites;

    RegisterHistory(int register) {
        this.register = register;
    }

    /** An operation the client got an answer for; {@code observed} is the value before it (absent = null). */
    synchronized void definite(int client, Kind kind, Integer expected, Integer write, Integer observed, boolean applied,
            long invokeNanos, long completeNanos) {
        ops.add(new Op(ops.size(), client, invokeNanos, completeNanos, kind, boxed(expected), boxed(write), boxed(observed), applied));
    }

    /** A write whose outcome the client cannot know (a timeout, a lost connection): pending forever. */
    synchronized void unknown(int client, Kind kind, Integer expected, Integer write, long invokeNanos) {
        ops.add(new Op(ops.size(), client, invokeNanos, Op.UNKNOWN, kind, boxed(expected), boxed(write), null, false));
        unknownWrites++;
    }

    synchronized int unknownWrites() {
        return unknownWrites;
    }

    synchronized List<Op> ops() {
        return List.copyOf(ops);
    }

    /** A write the client was told was applied. */
    static boolean acknowledgedWrite(Op op) {
        return op.kind() != Kind.READ && op.definite() && op.applied();
    }

    private static Long boxed(Integer value) {
        return value == null ? null : value.longValue();
    }

    /**
     * Every acknowledged write must be in the chain of values that ends at {@code last}, the value a SERIAL read saw
     * after the run; returns what is wrong (empty if nothing). The chain is followed from {@code last} through each
     * value's single writer to the value that writer replaced, down to absent.
     */
    static List<String> lostWrites(List<Op> ops, Long last) {
        Map<Long, Op> writers = new HashMap<>();
        for (Op op : ops) if (op.kind() != Kind.READ) writers.put(op.write(), op);
        List<String> problems = new ArrayList<>();
        Set<Op> chain = new HashSet<>();
        for (Long value = last; value != null; ) {
            Op writer = writers.get(value);
            if (writer == null) {
                problems.add("the register held " + value + ", which no operation wrote");
                break;
            }
            if (writer.definite() && !writer.applied()) problems.add("the register held the value of " + describe(writer) + ", reported not applied");
            if (!chain.add(writer)) {
                problems.add("the chain of values loops at " + describe(writer));
                break;
            }
            value = writer.expected();
        }
        for (Op op : ops) {
            if (acknowledgedWrite(op) && !chain.contains(op))
                problems.add("acknowledged write lost: " + describe(op) + " is not in the chain of the final value " + last);
        }
        return problems;
    }

    /**
     * The operations around {@code stuck}, the one the checker could not linearize: the few that completed just before
     * it began (they fix the state it should have seen), the definite ones and the newly invoked unknown ones whose
     * interval meets its own, and the writes that wrote or replaced the value it saw. Times in ms since the run began.
     */
    static String window(List<Op> ops, Op stuck) {
        long from = stuck.invokeNanos();
        long to = stuck.definite() ? stuck.completeNanos() : Long.MAX_VALUE;
        Set<Op> window = new HashSet<>(ops.stream().filter(o -> o.definite() && o.completeNanos() < from)
                .sorted(Comparator.comparingLong(Op::completeNanos).reversed()).limit(4).toList());
        for (Op o : ops) {
            boolean meets = o.invokeNanos() <= to && o.completeNanos() >= from && (o.definite() || o.invokeNanos() >= from);
            boolean seenValue = o.kind() != Kind.READ && (Objects.equals(o.write(), stuck.observed())
                    || Objects.equals(o.expected(), stuck.observed()) && (o.applied() || !o.definite()));
            if (meets || seenValue) window.add(o);
        }
        List<Op> sorted = new ArrayList<>(window);
        sorted.sort(Comparator.comparingLong(Op::invokeNanos));
        StringBuilder s = new StringBuilder();
        for (Op o : sorted) s.append(o == stuck ? "  >> " : "     ").append(describe(o)).append('\n');
        return s.toString();
    }

    /** One operation for people: {@code #12 c3 cas(5->17) applied saw=5 [1203.4 ms, 1210.9 ms]}. */
    static String describe(Op op) {
        String what = switch (op.kind()) {
            case READ -> "read";
            case CAS -> op.expected() == null ? "insert-if-absent(" + op.write() + ")" : "cas(" + op.expected() + "->" + op.write() + ")";
            case SET -> "set(" + op.write() + ")";
        };
        String result = !op.definite() ? "unknown" : op.kind() == Kind.READ ? "saw=" + op.observed()
                : (op.applied() ? "applied" : "not-applied") + " saw=" + op.observed();
        return "#" + op.id() + " c" + op.client() + " " + what + " " + result + " [" + millis(op.invokeNanos()) + ", "
                + (op.definite() ? millis(op.completeNanos()) : "pending") + "]";
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    // ------------------------------------------------------------------ file form: one operation a line

    private static final String HEADER = "# id client kind expected write observed applied invokeNanos completeNanos ('-' absent, '?' pending)";

    static void write(Path file, List<Op> ops) {
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Op o : ops) {
            lines.add(o.id() + " " + o.client() + " " + o.kind() + " " + text(o.expected()) + " " + text(o.write()) + " "
                    + text(o.observed()) + " " + o.applied() + " " + o.invokeNanos() + " " + (o.definite() ? o.completeNanos() : "?"));
        }
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Op> read(BufferedReader reader) throws IOException {
        List<Op> ops = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.trim().split(" ");
            if (f.length != 9) throw new IllegalArgumentException("expected 9 fields: " + line);
            ops.add(new Op(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[7]),
                    f[8].equals("?") ? Op.UNKNOWN : Long.parseLong(f[8]), Kind.valueOf(f[2]), value(f[3]), value(f[4]),
                    value(f[5]), Boolean.parseBoolean(f[6])));
        }
        return ops;
    }

    private static String text(Long value) {
        return value == null ? "-" : value.toString();
    }

    private static Long value(String text) {
        return text.equals("-") ? null : Long.valueOf(text);
    }

    /** The same history with operation {@code id} replaced. */
    static List<Op> replace(List<Op> ops, Op replacement) {
        List<Op> copy = new ArrayList<>(ops);
        Op old = copy.set(replacement.id(), replacement);
        if (old.id() != replacement.id()) throw new IllegalArgumentException("ids are not positions: " + old);
        return copy;
    }
}

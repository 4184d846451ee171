package ballot.paxos.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Checks that a history of operations on one compare-and-set register is linearizable (Wing and Gong's search, with
 * Lowe's memoisation of (linearized set, state) pairs, as in Knossos and Porcupine).
 *
 * <p>An operation with an unknown outcome (the client saw a timeout or its coordinator crashed) has no return event:
 * it may take effect at any point after its invocation, or never. Operations known not to have taken effect are
 * simply left out of the history, so a wrong "not applied" claim shows up as a value nobody wrote.
 */
public final class LinearizabilityChecker {
    public enum Kind { READ, CAS, SET }

    /**
     * One operation. {@code expected}/{@code write} are the CAS arguments (null = absent); {@code observed} is the
     * register value the operation saw (the current value for a read or failed CAS, the previous value for an applied
     * CAS or SET). {@code completeNanos == UNKNOWN} for an unknown outcome.
     */
    public record Op(int id, int client, long invokeNanos, long completeNanos, Kind kind, Long expected, Long write,
            Long observed, boolean applied) {
        public static final long UNKNOWN = Long.MAX_VALUE;

        public boolean definite() {
            return completeNanos != UNKNOWN;
        }

        @Override
        public String toString() {
            String what = switch (kind) {
                case READ -> "read";
                case CAS -> "cas(" + expected + "->" + write + ")";
                case SET -> "set(" + write + ")";
            };
            String result = !definite() ? "unknown" : (applied ? "applied" : "not-applied") + " saw=" + observed;
            return "#" + id + " c" + client + " " + what + " " + result + " [" + invokeNanos + ", "
                    + (definite() ? completeNanos : "∞") + "]";
        }
    }

    /**
     * {@code stuckAt}: when no linearization exists, the operation the longest linearizable prefix could not be
     * extended past; null when the history is linearizable or the search gave up (then it is no verdict).
     */
    public record Result(boolean linearizable, String detail, long steps, Op stuckAt) {}

    private static final class Entry {
        final Op op;
        final boolean call;
        final long time;
        Entry match;
        Entry prev;
        Entry next;

        Entry(Op op, boolean call, long time) {
            this.op = op;
            this.call = call;
            this.time = time;
        }
    }

    private record Frame(Entry entry, Long state) {}

    private record Memo(BitSet linearized, Long state) {}

    private static final Object NOT_ALLOWED = new Object();

    private LinearizabilityChecker() {}

    /** Ids of {@code history} are 0..n-1; {@code stepsMax} bounds the search (a result past it is not a verdict). */
    public static Result check(List<Op> history, Long initial, long stepsMax) {
        // Every definite operation observes the state it ran on, and an unknown CAS needs its expected value. An
        // unknown write of a value nobody observes or expects can therefore be assumed never to have happened: in
        // any linearization using it, only unknown writes can follow it before the next observation. Dropping such
        // writes keeps the search from trying every subset of them.
        Set<Object> mentioned = new HashSet<>();
        mentioned.add(box(initial));
        for (Op op : history) {
            if (op.definite()) mentioned.add(box(op.observed()));
            else if (op.kind() == Kind.CAS) mentioned.add(box(op.expected()));
        }
        List<Entry> entries = new ArrayList<>();
        int definite = 0;
        for (Op op : history) {
            if (!op.definite() && op.kind() == Kind.READ) continue; // an unknown read constrains nothing
            if (!op.definite() && !mentioned.contains(box(op.write()))) continue;
            Entry call = new Entry(op, true, op.invokeNanos());
            entries.add(call);
            if (op.definite()) {
                Entry ret = new Entry(op, false, op.completeNanos());
                call.match = ret;
                entries.add(ret);
                definite++;
            }
        }
        // Calls before returns at the same instant: the more permissive order.
        entries.sort(Comparator.comparingLong((Entry e) -> e.time).thenComparing(e -> e.call ? 0 : 1));
        Entry head = new Entry(null, true, Long.MIN_VALUE);
        Entry last = head;
        for (Entry e : entries) {
            last.next = e;
            e.prev = last;
            last = e;
        }

        Deque<Frame> stack = new ArrayDeque<>();
        Set<Memo> seen = new HashSet<>();
        BitSet linearized = new BitSet();
        Long state = initial;
        int remaining = definite;
        Entry entry = head.next;
        long steps = 0;
        int deepest = 0;
        Op stuckAt = null;
        while (remaining > 0) {
            if (++steps > stepsMax) return new Result(false, "search gave up after " + stepsMax + " steps", steps, null);
            if (entry == null) throw new IllegalStateException("ran off the history with " + remaining + " operations left");
            if (entry.call) {
                Object after = step(entry.op, state);
                if (after != NOT_ALLOWED) {
                    BitSet next = (BitSet) linearized.clone();
                    next.set(entry.op.id());
                    if (seen.add(new Memo((BitSet) next.clone(), (Long) after))) {
                        stack.push(new Frame(entry, state));
                        state = (Long) after;
                        linearized = next;
                        lift(entry);
                        if (entry.op.definite()) remaining--;
                        if (stack.size() > deepest) deepest = stack.size();
                        entry = head.next;
                        continue;
                    }
                }
                entry = entry.next;
            } else {
                if (stack.size() >= deepest) stuckAt = entry.op;
                if (stack.isEmpty())
                    return new Result(false, "no linearization; deepest prefix " + deepest + " operations, first stuck at "
                            + stuckAt, steps, stuckAt);
                Frame f = stack.pop();
                state = f.state();
                linearized.clear(f.entry().op.id());
                unlift(f.entry());
                if (f.entry().op.definite()) remaining++;
                entry = f.entry().next;
            }
        }
        return new Result(true, "ok", steps, null);
    }

    /** The register value after {@code op} runs on {@code state}, or NOT_ALLOWED if its observations contradict it. */
    private static Object step(Op op, Long state) {
        if (op.definite() && !Objects.equals(op.observed(), state)) return NOT_ALLOWED;
        switch (op.kind()) {
            case READ:
                return state;
            case SET:
                return op.definite() && !op.applied() ? state : op.write();
            case CAS:
                boolean holds = Objects.equals(op.expected(), state);
                if (!op.definite()) return holds ? op.write() : NOT_ALLOWED;
                if (op.applied()) return holds ? op.write() : NOT_ALLOWED;
                return holds ? NOT_ALLOWED : state;
            default:
                throw new AssertionError(op.kind());
        }
    }

    private static Object box(Long value) {
        return value == null ? NOT_ALLOWED : value; // any non-Long sentinel stands for "absent"
    }

    private static void lift(Entry call) {
        call.prev.next = call.next;
        if (call.next != null) call.next.prev = call.prev;
        Entry ret = call.match;
        if (ret != null) {
            ret.prev.next = ret.next;
            if (ret.next != null) ret.next.prev = ret.prev;
        }
    }

    private static void unlift(Entry call) {
        Entry ret = call.match;
        if (ret != null) {
            ret.prev.next = ret;
            if (ret.next != null) ret.next.prev = ret;
        }
        call.prev.next = call;
        if (call.next != null) call.next.prev = call;
    }
}

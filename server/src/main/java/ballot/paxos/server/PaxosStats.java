package ballot.paxos.server;

import ballot.paxos.Mark;
import ballot.paxos.coordinator.CasResult;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this node's Paxos did since it started: answers by outcome, the round trips and contentions they waited for
 * (docs/paxos.md §7, §9: "rounds per LWT"), and the protocol's marks. Thread-safe counters; the metrics endpoint and
 * tests read them.
 */
public final class PaxosStats {
    private final Map<CasResult.Outcome, LongAdder> results = new EnumMap<>(CasResult.Outcome.class);
    private final Map<CasResult.Outcome, LongAdder> roundTrips = new EnumMap<>(CasResult.Outcome.class);
    private final Map<Mark, LongAdder> marks = new EnumMap<>(Mark.class);
    private final LongAdder reads = new LongAdder();
    private final LongAdder contentions = new LongAdder();
    private final LongAdder fastPath = new LongAdder();

    PaxosStats() {
        for (CasResult.Outcome o : CasResult.Outcome.values()) {
            results.put(o, new LongAdder());
            roundTrips.put(o, new LongAdder());
        }
        for (Mark m : Mark.values()) marks.put(m, new LongAdder());
    }

    void record(CasResult result, boolean read) {
        results.get(result.outcome()).increment();
        roundTrips.get(result.outcome()).add(result.roundTrips());
        contentions.add(result.contentions());
        if (result.fastPath()) fastPath.increment();
        if (read) reads.increment();
    }

    void mark(Mark mark) {
        marks.get(mark).increment();
    }

    public long results(CasResult.Outcome outcome) {
        return results.get(outcome).sum();
    }

    /** Round trips summed over the answers with this outcome. */
    public long roundTrips(CasResult.Outcome outcome) {
        return roundTrips.get(outcome).sum();
    }

    public long marks(Mark mark) {
        return marks.get(mark).sum();
    }

    public long contentions() {
        return contentions.sum();
    }

    public long serialReads() {
        return reads.sum();
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("results={");
        boolean first = true;
        for (CasResult.Outcome o : CasResult.Outcome.values()) {
            long n = results(o);
            if (n == 0) continue;
            if (!first) s.append(", ");
            first = false;
            s.append(o).append('=').append(n).append(String.format(" (%.2f round trips)", (double) roundTrips(o) / n));
        }
        s.append("} serial_reads=").append(reads.sum()).append(" contentions=").append(contentions.sum())
                .append(" fast_path=").append(fastPath.sum()).append(" marks={");
        first = true;
        for (Mark m : Mark.values()) {
            long n = marks(m);
            if (n == 0) continue;
            if (!first) s.append(", ");
            first = false;
            s.append(m).append('=').append(n);
        }
        return s.append('}').toString();
    }
}

package ballot.txn.sim;

import ballot.txn.Mark;
import ballot.txn.TxnId;
import ballot.txn.transfer.TransferOutcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How well transfers made progress in one run or a sum of runs (docs/txn.md §13): of the transfers that ran a
 * transaction (not to the same account), how many were decided by their first submission's deadline, how many
 * completed at all, the placements that died per completed transfer, completed transfers per simulated second of
 * client activity, and the latency from first submission to the {@code COMPLETED} answer.
 */
final class Liveness {
    private int runs;
    private int transfers;
    private int decidedInTime;
    private int completed;
    private long deaths;
    private long clientNanos;
    private final List<Long> completedLatencyNanos = new ArrayList<>();

    static Liveness of(List<TransferSim.Report> reports, Map<Mark, Integer> marks, long clientNanos) {
        Liveness l = new Liveness();
        l.runs = 1;
        l.clientNanos = clientNanos;
        l.deaths = marks.getOrDefault(Mark.DIED, 0) + marks.getOrDefault(Mark.DIED_AT_RESERVATION, 0);
        Map<TxnId, TransferSim.Report> first = new LinkedHashMap<>();
        Set<TxnId> done = new HashSet<>();
        for (TransferSim.Report r : reports) {
            if (r.outcome() == TransferOutcome.SAME_ACCOUNT) continue;
            TransferSim.Report firstAnswer = first.computeIfAbsent(r.id(), id -> r);
            if (r.outcome() == TransferOutcome.COMPLETED && done.add(r.id()))
                l.completedLatencyNanos.add(r.answerNanos() - firstAnswer.submitNanos());
        }
        l.transfers = first.size();
        l.decidedInTime = (int) first.values().stream().filter(r -> r.outcome().isFinal()).count();
        l.completed = done.size();
        return l;
    }

    Liveness add(Liveness other) {
        runs += other.runs;
        transfers += other.transfers;
        decidedInTime += other.decidedInTime;
        completed += other.completed;
        deaths += other.deaths;
        clientNanos += other.clientNanos;
        completedLatencyNanos.addAll(other.completedLatencyNanos);
        return this;
    }

    int transfers() {
        return transfers;
    }

    /** Share of transfers whose first submission was decided (completed or refused) before its deadline. */
    double decidedInTimeShare() {
        return transfers == 0 ? 1 : (double) decidedInTime / transfers;
    }

    double completedPerSecond() {
        return clientNanos == 0 ? 0 : completed / (clientNanos / 1e9);
    }

    double deathsPerCompleted() {
        return completed == 0 ? deaths : (double) deaths / completed;
    }

    /** The {@code q} quantile of the first-submission-to-COMPLETED latency, in milliseconds. */
    double completedLatencyMillis(double q) {
        if (completedLatencyNanos.isEmpty()) return 0;
        List<Long> sorted = completedLatencyNanos.stream().sorted().toList();
        return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(q * sorted.size()) - 1)) / 1e6;
    }

    @Override
    public String toString() {
        return String.format("runs=%d transfers=%d decidedInTime=%.1f%% completed=%d timedOutFirst=%d deaths/completed=%.2f"
                        + " completed/s=%.0f latency p50=%.1fms p99=%.1fms",
                runs, transfers, 100 * decidedInTimeShare(), completed, transfers - decidedInTime, deathsPerCompleted(),
                completedPerSecond(), completedLatencyMillis(0.5), completedLatencyMillis(0.99));
    }
}

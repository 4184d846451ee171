package ballot.txn.sim;

import ballot.txn.Attempt;
import ballot.txn.Mark;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.TxnId;
import ballot.txn.transfer.Transfer;
import ballot.txn.transfer.TransferOutcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Judges one run against docs/txn.md §8: money is conserved and never overdrawn, every transfer is applied fully or
 * not at all and at most once, nothing is left locked or staging after recovery, every answer a client got is true,
 * and a serial replay in commit-point order reproduces every value a committed transaction read and justifies every
 * refusal (strict serializability, C4: commit points lie inside each submission's interval).
 */
final class TransferChecker {
    private TransferChecker() {}

    private record Event(long seq, Runnable check) {}

    static List<String> check(Map<PartitionKey, Long> initial, Map<TxnId, Transfer> transfers, Map<TxnId, PartitionKey> homes,
            List<TransferSim.Report> reports, List<TransferSim.ReadReport> readReports, SimStore store, Map<Mark, Integer> marks) {
        List<String> v = new ArrayList<>(store.violations);
        if (marks.getOrDefault(Mark.COMMIT_CONTRADICTED, 0) > 0)
            v.add("a committed attempt's record was finalized otherwise " + marks.get(Mark.COMMIT_CONTRADICTED) + " times");
        long total = initial.values().stream().mapToLong(Long::longValue).sum();

        // Nothing left locked or staging after recovery (§8 C5); money conserved.
        long finalTotal = 0;
        for (var e : store.states().entrySet()) {
            PartitionState<Long> s = e.getValue();
            if (s.intent() != null) v.add("intent left at " + e.getKey() + ": " + s.intent().attempt());
            for (Record r : s.records().values())
                if (r.status() == Record.Status.STAGING) v.add("record left staging at " + e.getKey() + ": " + r);
            if (e.getKey().table().equals(TransferSim.ACCOUNTS) && s.value() != null) finalTotal += s.value();
        }
        if (finalTotal != total) v.add("total balance " + finalTotal + " != initial " + total);

        // Each transfer applied fully or not at all, at most once (§8 C2, C3).
        Map<TxnId, List<SimStore.Applied>> appliedById = new HashMap<>();
        for (SimStore.Applied a : store.applied) appliedById.computeIfAbsent(a.attempt().id(), k -> new ArrayList<>()).add(a);
        Map<TxnId, Attempt> committedAttempt = new HashMap<>();
        for (Transfer t : transfers.values()) {
            List<SimStore.Applied> applied = appliedById.getOrDefault(t.id(), List.of());
            if (t.sameAccount()) {
                if (!applied.isEmpty()) v.add("same-account transfer " + t.id() + " applied");
                continue;
            }
            if (!applied.isEmpty()) {
                Set<Attempt> attempts = new HashSet<>();
                Map<PartitionKey, Long> delta = new HashMap<>();
                for (SimStore.Applied a : applied) {
                    attempts.add(a.attempt());
                    if (delta.put(a.key(), a.after() - a.before()) != null) v.add("transfer " + t.id() + " applied twice at " + a.key());
                }
                if (attempts.size() != 1) v.add("transfer " + t.id() + " applied by several epochs " + attempts);
                if (!Objects.equals(delta.get(t.source()), -t.amount()) || !Objects.equals(delta.get(t.destination()), t.amount())
                        || delta.size() != 2)
                    v.add("transfer " + t.id() + " of " + t.amount() + " half- or mis-applied: " + delta);
                committedAttempt.put(t.id(), applied.get(0).attempt());
            }
            Record record = store.record(homes.get(t.id()), t.id());
            boolean recordCommitted = record != null && record.status() == Record.Status.COMMITTED;
            if (recordCommitted != committedAttempt.containsKey(t.id()))
                v.add("transfer " + t.id() + " record " + record + " but applied=" + committedAttempt.containsKey(t.id()));
            else if (recordCommitted && record.epoch() != committedAttempt.get(t.id()).epoch())
                v.add("transfer " + t.id() + " record " + record + " but applied " + committedAttempt.get(t.id()));
        }

        // Every answer is true, and all final answers for one id agree. A retried transfer's interval starts at its
        // first submission: a retry may find the commit made by an earlier one.
        Map<TxnId, TransferOutcome> finalAnswer = new HashMap<>();
        Map<TxnId, Long> firstSubmitted = new HashMap<>();
        for (TransferSim.Report r : reports) firstSubmitted.merge(r.id(), r.submitNanos(), Math::min);
        for (TransferSim.Report r : reports) {
            Transfer t = transfers.get(r.id());
            boolean applied = committedAttempt.containsKey(r.id());
            if (r.outcome().isFinal()) {
                TransferOutcome before = finalAnswer.putIfAbsent(r.id(), r.outcome());
                if (before != null && before != r.outcome()) v.add("transfer " + r.id() + " answered " + before + " then " + r.outcome());
            }
            switch (r.outcome()) {
                case COMPLETED -> {
                    if (!applied) v.add("transfer " + r.id() + " answered COMPLETED but not applied");
                    else if (!r.result().reads().isEmpty()) {
                        Map<PartitionKey, SimStore.Placed> placed = store.placed.getOrDefault(committedAttempt.get(r.id()), Map.of());
                        long commitAt = placed.values().stream().mapToLong(SimStore.Placed::atNanos).max().orElse(Long.MAX_VALUE);
                        if (commitAt < firstSubmitted.get(r.id()) || commitAt > r.answerNanos())
                            v.add("transfer " + r.id() + " answered COMPLETED at " + r.answerNanos() + " outside its commit point " + commitAt);
                    }
                }
                case INSUFFICIENT_FUNDS, SOURCE_NOT_FOUND, DESTINATION_NOT_FOUND -> {
                    if (applied) v.add("transfer " + r.id() + " answered " + r.outcome() + " but applied");
                    Record record = store.record(homes.get(r.id()), r.id());
                    if (record == null || !r.outcome().name().equals(record.reason()))
                        v.add("transfer " + r.id() + " answered " + r.outcome() + " but its record is " + record);
                }
                case SAME_ACCOUNT -> {
                    if (!t.sameAccount()) v.add("transfer " + r.id() + " answered SAME_ACCOUNT");
                }
                case TIMED_OUT_UNKNOWN -> { }
            }
        }

        // Serial replay in commit-point order (§8 C4).
        Map<PartitionKey, Long> balances = new TreeMap<>(initial);
        List<Event> events = new ArrayList<>();
        for (var e : committedAttempt.entrySet()) {
            Transfer t = transfers.get(e.getKey());
            Map<PartitionKey, SimStore.Placed> placed = store.placed.getOrDefault(e.getValue(), Map.of());
            if (!placed.containsKey(t.source()) || !placed.containsKey(t.destination())) {
                v.add("transfer " + t.id() + " committed " + e.getValue() + " without an intent on every participant: " + placed.keySet());
                continue;
            }
            long commitSeq = Math.max(placed.get(t.source()).seq(), placed.get(t.destination()).seq());
            events.add(new Event(commitSeq, () -> {
                Long src = balances.get(t.source());
                Long dst = balances.get(t.destination());
                if (!Objects.equals(src, placed.get(t.source()).seen()) || !Objects.equals(dst, placed.get(t.destination()).seen()))
                    v.add("transfer " + t.id() + " read src=" + placed.get(t.source()).seen() + " dst="
                            + placed.get(t.destination()).seen() + " but the serial order has " + src + ", " + dst);
                if (src == null || dst == null || src < t.amount()) {
                    v.add("transfer " + t.id() + " committed on balances " + src + ", " + dst + " for " + t.amount());
                    return;
                }
                balances.put(t.source(), src - t.amount());
                balances.put(t.destination(), dst + t.amount());
            }));
        }
        for (SimStore.Refused r : store.refused) {
            Transfer t = transfers.get(r.attempt().id());
            if (t == null) {
                v.add("a read refused: " + r);
                continue;
            }
            events.add(new Event(r.seq(), () -> {
                Long src = balances.get(t.source());
                Long dst = balances.get(t.destination());
                boolean justified = switch (TransferOutcome.valueOf(r.reason())) {
                    case SOURCE_NOT_FOUND -> src == null;
                    case INSUFFICIENT_FUNDS -> src != null && src < t.amount();
                    case DESTINATION_NOT_FOUND -> dst == null;
                    default -> false;
                };
                if (!justified || !Objects.equals(r.seen(), balances.get(r.key())))
                    v.add("transfer " + t.id() + " refused " + r.reason() + " having read " + r.seen() + " at " + r.key()
                            + " when the serial order has src=" + src + " dst=" + dst + " amount=" + t.amount());
            }));
        }
        for (TransferSim.ReadReport read : readReports) {
            if (read.reads().size() == 1 && read.reads().containsKey(read.home())) continue; // 1PC: from the store's log
            Record record = store.record(read.home(), read.id());
            if (record == null || record.status() != Record.Status.COMMITTED) {
                v.add("snapshot " + read.id() + " answered but its record is " + record);
                continue;
            }
            long sum = read.reads().values().stream().filter(Objects::nonNull).mapToLong(Long::longValue).sum();
            if (sum != total) v.add("snapshot " + read.id() + " sums to " + sum + ", not " + total + ": " + read.reads());
            Map<PartitionKey, SimStore.Placed> placed = store.placed.getOrDefault(record.attempt(), Map.of());
            if (!placed.keySet().equals(read.reads().keySet())) {
                v.add("snapshot " + read.id() + " committed without an intent on every participant: " + placed.keySet());
                continue;
            }
            long commitSeq = placed.values().stream().mapToLong(SimStore.Placed::seq).max().orElseThrow();
            long commitAt = placed.values().stream().mapToLong(SimStore.Placed::atNanos).max().orElseThrow();
            if (commitAt < read.submitNanos() || commitAt > read.answerNanos())
                v.add("snapshot " + read.id() + " answered outside its commit point");
            events.add(new Event(commitSeq, () -> {
                for (var e : read.reads().entrySet())
                    if (!Objects.equals(e.getValue(), balances.get(e.getKey())))
                        v.add("snapshot " + read.id() + " read " + e.getKey() + "=" + e.getValue() + " but the serial order has "
                                + balances.get(e.getKey()));
            }));
        }
        for (SimStore.OnePhaseCommitted one : store.onePhase)
            events.add(new Event(one.seq(), () -> {
                if (!Objects.equals(one.seen(), balances.get(one.key())))
                    v.add("1PC read " + one.attempt() + " of " + one.key() + " saw " + one.seen() + " but the serial order has "
                            + balances.get(one.key()));
            }));
        for (SimStore.Applied a : store.applied)
            if (!transfers.containsKey(a.attempt().id()) && !Objects.equals(a.before(), a.after()))
                v.add("read-only " + a.attempt() + " changed " + a.key() + " from " + a.before() + " to " + a.after());
        events.sort(Comparator.comparingLong(Event::seq));
        for (Event e : events) e.check().run();
        for (var e : balances.entrySet())
            if (!Objects.equals(e.getValue(), store.state(e.getKey()).value()))
                v.add("serial replay ends with " + e.getKey() + "=" + e.getValue() + " but the store has " + store.state(e.getKey()).value());
        return v;
    }
}

package ballot.txn;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What to run (docs/txn.md §1): participants with their operations, the home partition of the record, the age (wait-die
 * priority, kept across epochs) and the deadline of epoch 0. A client that retries must present the same transaction
 * (same id, age, deadline, home and participants), which is why the deadline is part of it: every coordinator then
 * fences and expires epoch 0 at the same moment (§7).
 */
public record Transaction<V>(TxnId id, long ageMicros, long deadlineMicros, PartitionKey home,
        List<Participant<V>> participants) {

    public Transaction {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(home, "home");
        participants = List.copyOf(participants);
        if (participants.isEmpty()) throw new IllegalArgumentException("transaction " + id + " has no participants");
        Set<PartitionKey> keys = new HashSet<>();
        for (Participant<V> p : participants)
            if (!keys.add(p.key())) throw new IllegalArgumentException("partition " + p.key() + " appears twice in " + id);
        if (deadlineMicros <= ageMicros)
            throw new IllegalArgumentException("deadline " + deadlineMicros + " is not after the age " + ageMicros);
    }

    /** Only the home partition: one CAS decides it (1PC, §3.8). */
    public boolean onePhase() {
        return participants.size() == 1 && participants.get(0).key().equals(home);
    }

    public List<PartitionKey> keys() {
        return participants.stream().map(Participant::key).toList();
    }
}

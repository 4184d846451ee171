package ballot.paxos.sim;

import ballot.paxos.Bytes;
import ballot.paxos.coordinator.CasRequest;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A workload operation on the register cell {@code v}: a SERIAL read, CAS (expected to write; null = absent), or an
 * unconditional SET. Every update also records in {@code q} the plain-write cell {@code p} it saw, so that a later
 * read can prove the update was evaluated on fresh data.
 */
record SimRequest(LinearizabilityChecker.Kind kind, Long expected, Long write, Bytes query) implements CasRequest {
    @Override
    public Optional<Bytes> evaluate(Bytes current, long timestampMicros) {
        if (kind == LinearizabilityChecker.Kind.READ) return Optional.empty();
        TreeMap<Character, SimRow.Cell> row = SimRow.decode(current);
        SimRow.Cell v = row.get('v');
        Long value = v == null ? null : v.valueOrNull();
        if (kind == LinearizabilityChecker.Kind.CAS && !Objects.equals(value, expected)) return Optional.empty();
        SimRow.Cell p = row.get('p');
        long seen = p == null || p.tombstone() ? 0 : p.value();
        Map<Character, SimRow.Cell> update = new TreeMap<>();
        update.put('v', write == null ? new SimRow.Cell(0, true, 0) : new SimRow.Cell(write, false, 0));
        update.put('q', new SimRow.Cell(seen, false, 0));
        return Optional.of(SimRow.encode(update));
    }
}

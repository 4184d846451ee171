package ballot.node;

import ballot.paxos.sim.LinearizabilityChecker.Kind;
import ballot.paxos.sim.LinearizabilityChecker.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A bug planted in a recorded history, to show the checker is not blind to it: the last read that can be made stale
 * is made to see the value that an acknowledged write had replaced before the read began. Values never recur in a
 * register (RegisterHistory), so the replaced value was gone for good by then and no linearization can exist.
 */
final class StaleRead {
    private StaleRead() {}

    /** The history with one read made stale, or empty if no read began after an acknowledged write completed. */
    static Optional<List<Op>> plant(List<Op> ops) {
        List<Op> reads = new ArrayList<>();
        for (Op op : ops) if (op.kind() == Kind.READ && op.definite()) reads.add(op);
        for (int i = reads.size() - 1; i >= 0; i--) {
            Op read = reads.get(i);
            Op replacing = null; // the acknowledged write that completed last before the read began
            for (Op op : ops) {
                if (RegisterHistory.acknowledgedWrite(op) && op.completeNanos() < read.invokeNanos()
                        && (replacing == null || op.completeNanos() > replacing.completeNanos())) replacing = op;
            }
            if (replacing == null || Objects.equals(replacing.observed(), read.observed())) continue;
            Op stale = new Op(read.id(), read.client(), read.invokeNanos(), read.completeNanos(), Kind.READ, null, null,
                    replacing.observed(), false);
            return Optional.of(RegisterHistory.replace(ops, stale));
        }
        return Optional.empty();
    }
}

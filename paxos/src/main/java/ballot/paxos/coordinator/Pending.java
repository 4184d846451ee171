package ballot.paxos.coordinator;

import ballot.paxos.Bytes;
import java.util.function.Consumer;

/** One submitted request while it waits, runs and is answered exactly once. */
final class Pending {
    final CasRequest request;
    final CommitLevel commitLevel;
    final long deadlineNanos;
    private final Consumer<CasResult> callback;
    private final WorkSlot slot;
    /** Whether it holds its slot: from arrival until it waits in the queue, and again while it leads a round. */
    private boolean holdsSlot = true;
    int roundTrips;
    int contentions;
    boolean fastPath;
    private boolean answered;

    Pending(CasRequest request, CommitLevel commitLevel, long deadlineNanos, WorkSlot slot, Consumer<CasResult> callback) {
        this.request = request;
        this.commitLevel = commitLevel;
        this.deadlineNanos = deadlineNanos;
        this.slot = slot;
        this.callback = callback;
    }

    /** It waits in its partition's queue, or rides on another's round: its slot goes back to the node. */
    void waits() {
        if (!holdsSlot) return;
        holdsSlot = false;
        slot.giveBack();
    }

    /** It leads a round: it holds its slot again. */
    void leads() {
        if (holdsSlot) return;
        holdsSlot = true;
        slot.takeBack();
    }

    boolean answered() {
        return answered;
    }

    boolean expired(long nowNanos) {
        return nowNanos >= deadlineNanos;
    }

    void answer(CasResult.Outcome outcome, Bytes current) {
        if (answered) throw new IllegalStateException("request answered twice: " + request + " now " + outcome);
        answered = true;
        callback.accept(new CasResult(outcome, current, roundTrips, contentions, fastPath));
    }

    @Override
    public String toString() {
        return "Pending{" + request + "}";
    }
}

package ballot.paxos.coordinator;

import ballot.paxos.Bytes;
import java.util.function.Consumer;

/** One submitted request while it waits, runs and is answered exactly once. */
final class Pending {
    final CasRequest request;
    final CommitLevel commitLevel;
    final long deadlineNanos;
    private final Consumer<CasResult> callback;
    int roundTrips;
    int contentions;
    boolean fastPath;
    private boolean answered;

    Pending(CasRequest request, CommitLevel commitLevel, long deadlineNanos, Consumer<CasResult> callback) {
        this.request = request;
        this.commitLevel = commitLevel;
        this.deadlineNanos = deadlineNanos;
        this.callback = callback;
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

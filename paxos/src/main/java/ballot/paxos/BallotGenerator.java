package ballot.paxos;

import ballot.paxos.spi.Clock;

/**
 * Issues this node's ballots: time-ordered from the injected wall clock, unique by (micros, counter, node,
 * incarnation), strictly increasing per generator even when the clock steps back (docs/paxos.md §4.1).
 *
 * <p>The incarnation must differ between runs of the same node (the server persists a restart counter), because
 * after a restart the wall clock may be behind the ballots issued before it. Two generators of one node and
 * incarnation may issue the same ballot, so coordinators that may coordinate the same partition share one. Not
 * thread-safe: its coordinators run on one thread.
 */
public final class BallotGenerator {
    private final Clock clock;
    private final int node;
    private final int incarnation;
    private long lastMicros;
    private int lastCounter;

    public BallotGenerator(Clock clock, NodeId node, int incarnation) {
        this.clock = clock;
        this.node = node.id();
        this.incarnation = incarnation;
    }

    /** Whether this generator's ballots carry {@code node} and {@code incarnation}. */
    public boolean issuesFor(NodeId node, int incarnation) {
        return this.node == node.id() && this.incarnation == incarnation;
    }

    /** A ballot after every ballot issued before, with {@code micros >= minMicros}. */
    public Ballot next(long minMicros) {
        long micros = Math.max(Math.max(clock.wallMicros(), minMicros), lastMicros);
        int counter = micros == lastMicros ? lastCounter + 1 : 0;
        if (counter < 0) { // a counter overflow within one microsecond: move to the next microsecond
            micros++;
            counter = 0;
        }
        lastMicros = micros;
        lastCounter = counter;
        return new Ballot(micros, counter, node, incarnation);
    }

    /** A ballot after every ballot issued before and after {@code after}, with {@code micros >= minMicros}. */
    public Ballot nextAfter(Ballot after, long minMicros) {
        return next(Math.max(minMicros, after.micros() + 1));
    }
}

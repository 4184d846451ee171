package ballot.paxos.coordinator;

import ballot.paxos.BallotGenerator;
import ballot.paxos.Mark;
import ballot.paxos.NodeId;
import ballot.paxos.spi.Clock;
import ballot.paxos.spi.Observer;
import ballot.paxos.spi.ReadModel;
import ballot.paxos.spi.Transport;

/** What every partition session of one coordinator shares: identity, SPI and settings. */
final class Context {
    final NodeId self;
    final Transport transport;
    final Clock clock;
    final BallotGenerator ballots;
    final ReadModel model;
    final Observer observer;
    final Backoff backoff;
    final int batchSizeMax;
    final long retransmitNanos;
    final long recoveryGraceNanos;
    final long commitRetryNanos;
    final boolean fastPathEnabled;
    /** The most requests that may wait for one partition's next round; the next is answered OVERLOADED. */
    final int partitionQueueMax;

    Context(NodeId self, Transport transport, Clock clock, BallotGenerator ballots, ReadModel model, Observer observer,
            Backoff backoff, int batchSizeMax, long retransmitNanos, long recoveryGraceNanos, long commitRetryNanos,
            boolean fastPathEnabled, int partitionQueueMax) {
        this.self = self;
        this.transport = transport;
        this.clock = clock;
        this.ballots = ballots;
        this.model = model;
        this.observer = observer;
        this.backoff = backoff;
        this.batchSizeMax = batchSizeMax;
        this.retransmitNanos = retransmitNanos;
        this.recoveryGraceNanos = recoveryGraceNanos;
        this.commitRetryNanos = commitRetryNanos;
        this.fastPathEnabled = fastPathEnabled;
        this.partitionQueueMax = partitionQueueMax;
    }

    void mark(Mark mark) {
        observer.mark(mark);
    }
}

package ballot.paxos.spi;

import ballot.paxos.Mark;

/**
 * Receives the protocol's notable events: the server counts them as metrics (ballot.paxos.*), the simulation as
 * coverage marks that prove rare paths ran.
 */
@FunctionalInterface
public interface Observer {
    Observer NONE = mark -> { };

    void mark(Mark mark);
}

package ballot.txn.spi;

import ballot.txn.Mark;

/** Receives the protocol's notable events: metrics in the server, coverage marks in the simulation. */
@FunctionalInterface
public interface Observer {
    Observer NONE = mark -> { };

    void mark(Mark mark);
}

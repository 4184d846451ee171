package ballot.paxos.spi;

/**
 * Time as the protocol sees it. The server passes its system clock; the simulation passes a clock with drift and
 * jumps. The core never reads time any other way.
 */
public interface Clock {
    /** Monotonic time for deadlines, retransmission and back-off; never goes backwards. */
    long nanoTime();

    /** Wall-clock microseconds since the epoch, for ballots and write timestamps; may jump in either direction. */
    long wallMicros();
}

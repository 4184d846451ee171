package ballot.txn.spi;

/** Randomness for back-off. The server passes a seeded or secure source; the simulation, its seed. */
public interface RandomSource {
    /** A uniformly distributed value in [0, bound); {@code bound > 0}. */
    long nextLong(long bound);
}

package ballot.lwt;

import ballot.paxos.Ballot;
import java.util.UUID;

/**
 * A ballot shown as the version-1 time UUID Cassandra's system.paxos holds (docs/paxos.md §12). Deterministic:
 * <ul>
 *   <li>timestamp: the ballot's micros in the 100 ns units since 1582-10-15 of time UUIDs, so {@code toTimestamp()}
 *       and {@code toUnixTimestamp()} give the ballot's time, which is also its decree's write timestamp;</li>
 *   <li>clock sequence (14 bits): the counter;</li>
 *   <li>node (48 bits): the node id (high 32 bits), then the incarnation (low 16 bits).</li>
 * </ul>
 * The counter and the incarnation are capped at their field's maximum, never wrapped. So a later ballot never has an
 * earlier timestamp, and of two ballots in one microsecond the later has a clock sequence at least as high.
 */
final class BallotTimeUuid {
    /** 100 ns intervals from the start of the Gregorian calendar (1582-10-15) to the Unix epoch. */
    static final long GREGORIAN_TO_UNIX_100NS = 0x01B21DD213814000L;
    static final int CLOCK_SEQUENCE_MAX = (1 << 14) - 1;
    static final int INCARNATION_MAX = (1 << 16) - 1;
    /** The last micros a 60-bit time UUID timestamp holds (in the year 5236). */
    static final long MICROS_MAX = ((1L << 60) - 1 - GREGORIAN_TO_UNIX_100NS) / 10;
    private static final long VERSION_1 = 0x1000L;
    private static final long VARIANT_RFC_4122 = 0x8000_0000_0000_0000L;

    private BallotTimeUuid() {}

    static UUID of(Ballot ballot) {
        if (ballot.micros() > MICROS_MAX) throw new IllegalArgumentException("ballot " + ballot + " is after the last time UUID timestamp");
        long timestamp = ballot.micros() * 10 + GREGORIAN_TO_UNIX_100NS;
        long msb = (timestamp & 0xFFFF_FFFFL) << 32           // time_low
                | ((timestamp >>> 32) & 0xFFFFL) << 16        // time_mid
                | VERSION_1 | (timestamp >>> 48);             // version, time_hi
        long clockSequence = Math.min(Integer.toUnsignedLong(ballot.counter()), CLOCK_SEQUENCE_MAX);
        long node = Integer.toUnsignedLong(ballot.node()) << 16 | Math.min(Integer.toUnsignedLong(ballot.incarnation()), INCARNATION_MAX);
        return new UUID(msb, VARIANT_RFC_4122 | clockSequence << 48 | node);
    }
}

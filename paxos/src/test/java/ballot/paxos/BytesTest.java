package ballot.paxos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BytesTest {
    /** The shape of a Paxos key: a 16-byte table id, then the partition key (here a bigint account id). */
    private static byte[] partition(long id) {
        return ByteBuffer.allocate(24).putLong(0x1234_5678_9abc_def0L).putLong(0x0fed_cba9_8765_4321L).putLong(id).array();
    }

    @Test
    void consecutivePartitionKeysDoNotShareHashes() {
        int keys = 1_000_000;
        Set<Integer> hashes = new HashSet<>();
        for (long id = 0; id < keys; id++) hashes.add(Bytes.wrap(partition(id)).hashCode());
        // 1,000,000 random 32-bit values collide about 116 times (the birthday bound); Arrays.hashCode gives 9,122
        // distinct values for the first 100,000 keys.
        assertTrue(hashes.size() > keys - 1_000, hashes.size() + " distinct hashes for " + keys + " keys");
    }

    @Test
    void hashTablesSpreadConsecutiveKeysOverTheirBuckets() {
        int buckets = 1 << 16;
        Map<Integer, Integer> perBucket = new HashMap<>();
        for (long id = 0; id < 200_000; id++) {
            int h = Bytes.wrap(partition(id)).hashCode();
            perBucket.merge((h ^ (h >>> 16)) & (buckets - 1), 1, Integer::sum); // HashMap's bucket of h
        }
        int fullest = perBucket.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        // About 3 keys per bucket on average; a uniform hash puts at most a dozen or so in any one.
        assertTrue(fullest <= 16, "a bucket holds " + fullest + " keys");
    }

    @Test
    void equalContentHashesEqually() {
        byte[] a = partition(42);
        assertEquals(Bytes.of(a).hashCode(), Bytes.wrap(a.clone()).hashCode());
        assertEquals(Bytes.hash(a), Bytes.of(a).hashCode());
    }
}

package ballot.txn;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** One partition: the unit of one compare-and-set (docs/txn.md §1). The key's bytes are opaque to the core. */
public final class PartitionKey implements Comparable<PartitionKey> {
    private final String table;
    private final byte[] key;

    private PartitionKey(String table, byte[] key) {
        this.table = Objects.requireNonNull(table, "table");
        this.key = key.clone();
    }

    public static PartitionKey of(String table, byte[] key) {
        return new PartitionKey(table, key);
    }

    public static PartitionKey of(String table, String key) {
        return new PartitionKey(table, key.getBytes(StandardCharsets.UTF_8));
    }

    public String table() {
        return table;
    }

    public byte[] key() {
        return key.clone();
    }

    @Override
    public int compareTo(PartitionKey other) {
        int byTable = table.compareTo(other.table);
        return byTable != 0 ? byTable : Arrays.compareUnsigned(key, other.key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionKey other && table.equals(other.table) && Arrays.equals(key, other.key);
    }

    @Override
    public int hashCode() {
        return 31 * table.hashCode() + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return table + ":" + new String(key, StandardCharsets.UTF_8);
    }
}

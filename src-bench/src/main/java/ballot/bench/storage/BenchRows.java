package ballot.bench.storage;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.Row;
import ballot.cql.schema.TableMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The rows the storage benchmarks write: partition {@code k} (a bigint) holds one row, clustered at {@code k % 7}, whose
 * text column holds random letters.
 */
final class BenchRows {
    private BenchRows() {}

    static PartitionKey key(int k) {
        return PartitionKey.of(ByteBuffer.allocate(8).putLong(0, k));
    }

    /** The clustering of key {@code k}'s only row. */
    static ByteBuffer clusteringValue(int k) {
        return ByteBuffer.allocate(4).putInt(0, k % 7);
    }

    /** Key {@code k}'s row with {@code valueBytes} random letters in {@code column}, written at {@code timestamp}. */
    static PartitionUpdate row(TableMetadata table, int column, int k, int valueBytes, Random random, long timestamp) {
        byte[] value = new byte[valueBytes];
        for (int i = 0; i < value.length; i++) value[i] = (byte) ('a' + random.nextInt(26));
        Row row = new Row(Clustering.of(clusteringValue(k)), new LivenessInfo(timestamp, 0, Integer.MAX_VALUE),
                DeletionTime.LIVE, List.of(Cell.live(column, null, ByteBuffer.wrap(value), timestamp)), List.of());
        return new PartitionUpdate(table.id(), key(k), DeletionTime.LIVE, List.of(), null, List.of(row));
    }

    /** Deletes a benchmark's data directory and everything in it. */
    static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}

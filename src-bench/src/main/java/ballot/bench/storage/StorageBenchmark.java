package ballot.bench.storage;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Slice;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.storage.WriteId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The {@link StorageEngine} on a real RocksDB in a temporary directory, with the node's default options
 * ({@link StorageOptions#defaults}: periodic WAL sync, 128 MiB block cache), on a table
 * {@code kv (k bigint, c int, v text, PRIMARY KEY (k, c))} preloaded with {@code rows} rows whose {@code v} is
 * {@code valueBytes} bytes long:
 *
 * <ul>
 *   <li>{@code write}: {@link StorageEngine#apply} of one single-row {@link PartitionUpdate} (an INSERT of a whole row:
 *       row liveness and one cell) on a uniformly random existing key, with a fresh {@link WriteId}: the blind write
 *       path (encode the fragment, one RocksDB WriteBatch, WAL append without fsync).
 *   <li>{@code read}: {@link StorageEngine#read} of one row by full primary key (partition key and clustering), on a
 *       uniformly random existing key: prefix iterator, fragment merge, row decode.
 * </ul>
 *
 * Keys, slices and updates are built in {@code @Setup}; each benchmark runs in its own forks, so reads see only the
 * preloaded data (memtable and whatever RocksDB flushed while loading). There is no baseline; report microseconds per
 * operation and how they change with {@code rows} and {@code valueBytes}.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar StorageBenchmark}; a short run:
 * {@code ... StorageBenchmark -f 1 -wi 3 -i 3 -w 1s -r 1s -p rows=10000}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class StorageBenchmark {
    private static final int NOW = 1_700_000_000;
    private static final long TIMESTAMP = NOW * 1_000_000L;
    private static final int INPUTS = 1 << 16;
    private static final int LOAD_BATCH = 1_000;

    @Param({"10000", "200000"})
    int rows;

    @Param({"16", "1024"})
    int valueBytes;

    private Path directory;
    private StorageEngine storage;
    private TableMetadata table;
    private int column;
    private WriteId ids;
    private PartitionKey[] keys;
    private ReadSpec[] reads;
    private PartitionUpdate[] updates;
    private int next;

    @Setup(Level.Trial)
    public void load() throws IOException {
        directory = Files.createTempDirectory("ballot-storage-bench");
        storage = StorageEngine.open(StorageOptions.defaults(directory));
        table = SchemaDefinitions.table("bench", "CREATE TABLE kv (k bigint, c int, v text, PRIMARY KEY (k, c))", UUID.randomUUID());
        column = table.column("v").id();
        storage.ensureTable(table);
        ids = new WriteId(1);
        Random random = new Random(42);

        List<Mutation> batch = new ArrayList<>(LOAD_BATCH);
        for (int k = 0; k < rows; k++) {
            batch.add(new Mutation(BenchRows.row(table, column, k, valueBytes, random, TIMESTAMP), ids.next(TIMESTAMP)));
            if (batch.size() == LOAD_BATCH || k == rows - 1) {
                storage.apply(batch);
                batch.clear();
            }
        }

        keys = new PartitionKey[INPUTS];
        reads = new ReadSpec[INPUTS];
        updates = new PartitionUpdate[INPUTS];
        for (int i = 0; i < INPUTS; i++) {
            int k = random.nextInt(rows);
            keys[i] = BenchRows.key(k);
            reads[i] = new ReadSpec(List.of(Slice.of(BenchRows.clusteringValue(k))), false, 1, 1, NOW);
            updates[i] = BenchRows.row(table, column, random.nextInt(rows), valueBytes, random, TIMESTAMP);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        storage.close();
        BenchRows.delete(directory);
    }

    @Benchmark
    public void write() {
        PartitionUpdate update = updates[next++ & (INPUTS - 1)];
        storage.apply(List.of(new Mutation(update, ids.next(TIMESTAMP))));
    }

    @Benchmark
    public PartitionData read() {
        int i = next++ & (INPUTS - 1);
        return storage.read(table, keys[i], reads[i]);
    }



}

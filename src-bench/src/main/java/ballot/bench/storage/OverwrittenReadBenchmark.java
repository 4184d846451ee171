package ballot.bench.storage;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
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
 * What overwrites cost a later read: {@link StorageEngine#read} of one row by full primary key when every row of a
 * 100,000-row table {@code kv (k bigint, c int, v text, PRIMARY KEY (k, c))} was written {@code versions} times (a
 * whole-row INSERT each time, 100-byte values, increasing timestamps). Writes are blind, so each version is its own
 * row fragment until a sweep merges them, and a read merges all of them (docs/storage.md). {@code versions} stays
 * below {@code TableStore.FRAGMENTS_BEFORE_SWEEP} (8), so no read-triggered sweep changes the data while it is
 * measured. The baseline is {@code versions=1}; report each score as a ratio to it.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar OverwrittenReadBenchmark}; a short run:
 * {@code ... OverwrittenReadBenchmark -f 1 -wi 3 -i 3 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class OverwrittenReadBenchmark {
    private static final int NOW = 1_700_000_000;
    private static final long TIMESTAMP = NOW * 1_000_000L;
    private static final int ROWS = 100_000;
    private static final int VALUE_BYTES = 100;
    private static final int INPUTS = 1 << 16;
    private static final int LOAD_BATCH = 1_000;

    @Param({"1", "4", "7"})
    int versions;

    private Path directory;
    private StorageEngine storage;
    private TableMetadata table;
    private PartitionKey[] keys;
    private ReadSpec[] reads;
    private int next;

    @Setup(Level.Trial)
    public void load() throws IOException {
        directory = Files.createTempDirectory("ballot-overwrite-bench");
        // Periodic sweeps off: only reads could request one, and they do not at fewer than 8 fragments.
        StorageOptions defaults = StorageOptions.defaults(directory);
        storage = StorageEngine.open(new StorageOptions(directory, defaults.syncEveryWrite(), defaults.syncPeriodMillis(),
                defaults.blockCacheBytes(), 0));
        table = SchemaDefinitions.table("bench", "CREATE TABLE kv (k bigint, c int, v text, PRIMARY KEY (k, c))", UUID.randomUUID());
        int column = table.column("v").id();
        storage.ensureTable(table);
        WriteId ids = new WriteId(1);
        Random random = new Random(42);

        List<Mutation> batch = new ArrayList<>(LOAD_BATCH);
        for (int version = 0; version < versions; version++) {
            long timestamp = TIMESTAMP + version;
            for (int k = 0; k < ROWS; k++) {
                batch.add(new Mutation(BenchRows.row(table, column, k, VALUE_BYTES, random, timestamp), ids.next(timestamp)));
                if (batch.size() == LOAD_BATCH) {
                    storage.apply(batch);
                    batch.clear();
                }
            }
        }
        if (!batch.isEmpty()) storage.apply(batch);

        keys = new PartitionKey[INPUTS];
        reads = new ReadSpec[INPUTS];
        for (int i = 0; i < INPUTS; i++) {
            int k = random.nextInt(ROWS);
            keys[i] = BenchRows.key(k);
            reads[i] = new ReadSpec(List.of(Slice.of(BenchRows.clusteringValue(k))), false, 1, 1, NOW);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        storage.close();
        BenchRows.delete(directory);
    }

    @Benchmark
    public PartitionData read() {
        int i = next++ & (INPUTS - 1);
        return storage.read(table, keys[i], reads[i]);
    }


}

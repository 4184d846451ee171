package ballot.bench.storage;

import ballot.cql.data.PartitionKey;
import ballot.cql.statement.SchemaDefinitions;
import ballot.cql.schema.TableMetadata;
import ballot.storage.StorageEngine;
import ballot.storage.StorageEngine.PaxosWrite;
import ballot.storage.StorageOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * The point lookups in the Paxos column family that every acceptor step makes before it decides: a partition's
 * registers ({@link StorageEngine#paxosState}) and its plain-write version ({@link StorageEngine#plainVersion}, two
 * keys: the partition's and its table's). An LWT on a new partition finds none of them; a hot partition finds its
 * registers, and rarely a version (only plain writes and TRUNCATE make one). {@code registers=false} looks up
 * partitions that have none, {@code true} partitions whose registers were written in the setup (100 bytes each, in
 * the memtable, as a hot partition's are). Either way the memtable also holds the registers of 100,000 other
 * partitions, as a node's does under load.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar PaxosLookupBenchmark -f 2 -wi 3 -i 5}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class PaxosLookupBenchmark {
    private static final int PARTITIONS = 1 << 14;
    private static final int OTHER_PARTITIONS = 100_000;

    @Param({"false", "true"})
    boolean registers;

    private Path directory;
    private StorageEngine storage;
    private UUID tableId;
    private PartitionKey[] keys;
    private int next;

    @Setup(Level.Trial)
    public void open() throws IOException {
        directory = Files.createTempDirectory("ballot-paxos-lookup-bench");
        storage = StorageEngine.open(StorageOptions.defaults(directory));
        TableMetadata table = SchemaDefinitions.table("bench", "CREATE TABLE kv (k bigint, c int, v text, PRIMARY KEY (k, c))", UUID.randomUUID());
        storage.ensureTable(table);
        tableId = table.id();
        keys = new PartitionKey[PARTITIONS];
        for (int i = 0; i < PARTITIONS; i++) keys[i] = BenchRows.key(i);
        // partitions 0..PARTITIONS-1 are looked up; they have registers only if registers
        List<PaxosWrite> writes = new ArrayList<>(PARTITIONS + OTHER_PARTITIONS);
        for (int i = registers ? 0 : PARTITIONS; i < PARTITIONS + OTHER_PARTITIONS; i++)
            writes.add(new PaxosWrite(tableId, BenchRows.key(i), new byte[100], List.of()));
        storage.persistPaxos(writes, false);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        storage.close();
        BenchRows.delete(directory);
    }

    @Benchmark
    public byte[] paxosState() {
        return storage.paxosState(tableId, keys[next++ & (PARTITIONS - 1)]);
    }

    @Benchmark
    public long plainVersion() {
        return storage.plainVersion(tableId, keys[next++ & (PARTITIONS - 1)]);
    }
}

package ballot.bench.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * One synced 100-byte RocksDB write (what a Paxos group commit or {@code commitlog_sync: batch} pays per batch), into a
 * log file RocksDB created ({@code recycle=0}) or one it reused ({@code recycle=4}, the node's setting,
 * docs/storage.md "Durability"). The setup writes and flushes 80 MB in four rounds, so that earlier logs are obsolete
 * and, with recycling, the live log is one of them. Sample mode: read the p50 and p99, not only the mean.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar SyncedWriteBenchmark -f 2 -wi 2 -i 5}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class SyncedWriteBenchmark {
    @Param({"0", "4"})
    int recycle;

    private Path directory;
    private Options options;
    private RocksDB db;
    private WriteOptions synced;
    private final byte[] value = new byte[100];
    private long next;

    @Setup
    public void open() throws IOException, RocksDBException {
        RocksDB.loadLibrary();
        directory = Files.createTempDirectory("ballot-synced-write");
        options = new Options().setCreateIfMissing(true).setRecycleLogFileNum(recycle);
        db = RocksDB.open(options, directory.toString());
        synced = new WriteOptions().setSync(true);
        byte[] filler = new byte[1000];
        Random random = new Random(1);
        try (WriteOptions unsynced = new WriteOptions(); FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 20_000; i++) {
                    random.nextBytes(filler);
                    db.put(unsynced, ("fill-" + round + "-" + i).getBytes(), filler);
                }
                db.flush(flush);
            }
        }
    }

    @Benchmark
    public void syncedPut() throws RocksDBException {
        db.put(synced, ("k" + next++).getBytes(), value);
    }

    @TearDown
    public void close() throws IOException {
        synced.close();
        db.close();
        options.close();
        BenchRows.delete(directory);
    }
}

package ballot.bench.cql;

import ballot.cql.parse.Parser;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Parser#parse} (lexing and recursive descent into a {@code Statement}) on typical statements, selected by
 * {@code statement}: a prepared-style INSERT with five markers, a SELECT with a WHERE on key and clustering range,
 * ORDER BY and LIMIT, an UPDATE with set, map and list operations, and a CREATE TABLE with clustering order and
 * table options. This is the cost of every PREPARE and of every unprepared QUERY before it reaches execution; there
 * is no baseline, so report nanoseconds per statement and the per-byte rate.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar ParserBenchmark}; a short run:
 * {@code ... ParserBenchmark -f 1 -wi 3 -i 3 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Thread)
public class ParserBenchmark {
    static final Map<String, String> STATEMENTS = Map.of(
            "insert", "INSERT INTO bench.kv (k, name, count, id, payload) VALUES (?, ?, ?, ?, ?)",
            "select", "SELECT name, count, payload FROM bench.events WHERE k = ? AND c >= ? AND c < ? "
                    + "ORDER BY c DESC LIMIT 100",
            "update", "UPDATE bench.profiles USING TTL 86400 SET tags = tags + {'new', 'active'}, "
                    + "scores['latest'] = ?, history = history + [?, ?], visits = 3 WHERE id = ?",
            "create", "CREATE TABLE IF NOT EXISTS bench.events (k int, c timeuuid, name text, count bigint, "
                    + "tags set<text>, attributes map<text, text>, payload blob, PRIMARY KEY ((k), c)) "
                    + "WITH CLUSTERING ORDER BY (c DESC) AND comment = 'events by key' AND gc_grace_seconds = 3600 "
                    + "AND compaction = {'class': 'SizeTieredCompactionStrategy'}");

    @Param({"insert", "select", "update", "create"})
    String statement;

    private String cql;

    @Setup
    public void pick() {
        cql = STATEMENTS.get(statement);
    }

    @Benchmark
    public Parser.Parsed parse() {
        return Parser.parse(cql);
    }
}

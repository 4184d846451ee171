package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.protocol.message.QueryOptions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The warnings a batch is answered with, worded as Cassandra 5.0.9 words them. */
class BatchWarningsTest {
    private final CasFixture f = new CasFixture(
            "CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c))",
            "CREATE TABLE u (k int PRIMARY KEY, v int)",
            "CREATE TABLE n (k int PRIMARY KEY, c counter)");

    private List<String> warnings(String cql) {
        CqlStatement statement = f.preparer.prepare(cql, "ks");
        QueryContext context = QueryContext.of(f.environment, "ks", QueryOptions.DEFAULT, statement);
        statement.execute(context).join();
        return context.warnings();
    }

    /** A batch of {@code type} of {@code insert} for the keys {@code first} on (the fixture takes one write per partition). */
    private static String batch(String type, int first, int partitions, String insert) {
        return "BEGIN " + type + " BATCH " + inserts(first, partitions, insert) + "; APPLY BATCH";
    }

    private static String inserts(int first, int partitions, String insert) {
        return IntStream.range(first, first + partitions).mapToObj(i -> String.format(insert, i)).collect(Collectors.joining("; "));
    }

    @Test
    void anUnloggedBatchOverMoreThanTenPartitionsIsWarnedAbout() {
        assertThat(warnings(batch("UNLOGGED", 0, 10, "INSERT INTO t (k, c) VALUES (%d, 0)"))).isEmpty();
        assertThat(warnings(batch("UNLOGGED", 100, 11, "INSERT INTO t (k, c) VALUES (%d, 0)"))).containsExactly("Unlogged batch covering 11 "
                + "partitions detected against table [ks.t]. You should use a logged batch for atomicity, or asynchronous writes for performance.");
        assertThat(warnings(batch("COUNTER", 0, 11, "UPDATE n SET c = c + 1 WHERE k = %d"))).singleElement().asString()
                .startsWith("Unlogged batch covering 11 partitions detected against table [ks.n].");
        assertThat(warnings(batch("", 200, 11, "INSERT INTO t (k, c) VALUES (%d, 0)"))).as("a logged batch").isEmpty();
    }

    @Test
    void partitionsOfSeveralTablesAreToldApartByTheirKeysAlone() {
        String sixEach = "BEGIN UNLOGGED BATCH " + inserts(0, 6, "INSERT INTO t (k, c) VALUES (%d, 0)") + "; "
                + inserts(0, 6, "INSERT INTO u (k) VALUES (%d)") + "; APPLY BATCH";
        assertThat(warnings(sixEach)).as("keys 0 to 5 in both").isEmpty();

        String twelve = "BEGIN UNLOGGED BATCH " + inserts(10, 6, "INSERT INTO t (k, c) VALUES (%d, 0)") + "; "
                + inserts(20, 6, "INSERT INTO u (k) VALUES (%d)") + "; APPLY BATCH";
        assertThat(warnings(twelve)).singleElement().asString()
                .startsWith("Unlogged batch covering 12 partitions detected against tables [ks.t, ks.u].");
    }

    @Test
    void aLargeBatchIsMeasuredInBytes() {
        String kib = "x".repeat(1024);
        assertThat(warnings(batch("", 300, 8, "INSERT INTO t (k, c, v) VALUES (%d, 0, '" + kib + "')"))).singleElement().asString()
                .matches("Batch for \\[ks.t\\] is of size \\d+, exceeding specified threshold of 5120 by \\d+\\.");
    }
}

package ballot.cql.statement;

import static ballot.cql.statement.CasFixture.columns;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.protocol.message.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a not-applied compare-and-set shows of a table with static columns, as Cassandra 5.0 reads it (checked against a
 * 5.0.9 node): the static row comes with the partition's rows, and an existence check reads only the kinds of columns
 * its statement writes.
 */
class StaticCasAnswerTest {
    private final CasFixture fixture = new CasFixture("CREATE TABLE ks.t (k int, c int, s int static, v int, PRIMARY KEY (k, c))");

    {
        fixture.execute("INSERT INTO ks.t (k, c, s, v) VALUES (1, 1, 4, 1)");
        fixture.execute("INSERT INTO ks.t (k, c, v) VALUES (2, 1, 1)");
        fixture.execute("UPDATE ks.t SET v = 1 WHERE k = 4 AND c = 1"); // a row without a live primary key
    }

    /** The answer's columns and values, "[applied], s = false, null": a wrongly applied answer differs too. */
    private String answer(String cql) {
        Result result = fixture.execute(cql);
        return String.join(", ", columns(result)) + " = " + values(result).stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static List<Object> values(Result result) {
        List<Map<String, Object>> rows = CasFixture.rows(result);
        assertThat(rows).hasSize(1);
        return new ArrayList<>(rows.get(0).values());
    }

    @Test
    void aConditionOnANullStaticColumnShowsItWhenThePartitionHasRows() {
        Result result = fixture.execute("UPDATE ks.t SET v = 3 WHERE k = 2 AND c = 1 IF s = 5");
        assertThat(columns(result)).containsExactly("[applied]", "s");
        assertThat(values(result)).containsExactly(false, null);
        assertThat(answer("UPDATE ks.t SET s = 3 WHERE k = 2 IF s = 5")).isEqualTo("[applied], s = false, null");
        assertThat(answer("UPDATE ks.t SET v = 3 WHERE k = 3 AND c = 1 IF s = 5")).isEqualTo("[applied] = false");
    }

    @Test
    void ifNotExistsShowsTheKindsOfColumnsItsStatementWrites() {
        assertThat(values(fixture.execute("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 9) IF NOT EXISTS"))).containsExactly(false, 1, 1, null, 1);
        assertThat(values(fixture.execute("INSERT INTO ks.t (k, c, s, v) VALUES (1, 1, 5, 9) IF NOT EXISTS")))
                .containsExactly(false, 1, 1, 4, 1);
        assertThat(values(fixture.execute("INSERT INTO ks.t (k, s) VALUES (1, 6) IF NOT EXISTS"))).containsExactly(false, 1, 1, 4, null);
    }

    @Test
    void aRowWithNoLiveColumnTheReadSelectsIsNotShown() {
        assertThat(answer("UPDATE ks.t SET s = 2 WHERE k = 4 IF s = 5")).isEqualTo("[applied] = false");
        assertThat(answer("DELETE s FROM ks.t WHERE k = 4 IF EXISTS")).isEqualTo("[applied] = false");
        assertThat(values(fixture.execute("UPDATE ks.t SET v = 2 WHERE k = 4 AND c = 1 IF s = 5"))).containsExactly(false, null);
    }

    @Test
    void anInsertOfStaticColumnsWithItsRowReadsTheRegularColumns() {
        assertThat(values(fixture.execute("INSERT INTO ks.t (k, c, s) VALUES (1, 1, 9) IF NOT EXISTS"))).containsExactly(false, 1, 1, 4, 1);
    }

    @Test
    void onlyConditionalStatementsChooseTheColumnsRead() {
        Result result = fixture.execute("BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 9) IF NOT EXISTS; "
                + "UPDATE ks.t SET s = 1 WHERE k = 1 APPLY BATCH");
        assertThat(values(result)).containsExactly(false, 1, 1, null, 1);
    }
}

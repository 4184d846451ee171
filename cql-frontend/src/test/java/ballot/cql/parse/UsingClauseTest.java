package ballot.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.SyntaxException;
import ballot.cql.type.ConstantKind;
import org.junit.jupiter.api.Test;

/** The USING clause: Cassandra's TTL and TIMESTAMP and ScyllaDB's TIMEOUT, on the statements each may follow. */
class UsingClauseTest {
    private static Statement parse(String cql) {
        return Parser.parse(cql).statement();
    }

    private static Term duration(String text) {
        return new Term.Constant(ConstantKind.DURATION, text);
    }

    private static Term integer(String text) {
        return new Term.Constant(ConstantKind.INTEGER, text);
    }

    @Test
    void selectTakesATimeoutAfterAllowFiltering() {
        Statement.Select s = (Statement.Select) parse("SELECT * FROM system_schema.views WHERE keyspace_name = 'ks' "
                + "AND base_table_name = 't' ALLOW FILTERING USING TIMEOUT 60000ms");
        assertThat(s.allowFiltering()).isTrue();
        assertThat(s.timeout()).isEqualTo(duration("60000ms"));
        assertThat(((Statement.Select) parse("SELECT * FROM t LIMIT 3 USING TIMEOUT 5s")).timeout()).isEqualTo(duration("5s"));
        assertThat(((Statement.Select) parse("SELECT * FROM t")).timeout()).isNull();
    }

    @Test
    void modificationsCombineTimeoutWithTtlAndTimestampInAnyOrder() {
        Statement.Insert insert = (Statement.Insert) parse(
                "INSERT INTO t (k, v) VALUES (1, 2) USING TIMEOUT 60m AND TTL 1000000 AND TIMESTAMP 321");
        assertThat(insert.attributes()).isEqualTo(new Statement.Attributes(integer("1000000"), integer("321"), duration("60m")));
        Statement.Update update = (Statement.Update) parse("UPDATE t USING TIMESTAMP 42 AND TIMEOUT 48h SET v = 5 WHERE k = 1");
        assertThat(update.attributes()).isEqualTo(new Statement.Attributes(null, integer("42"), duration("48h")));
        Statement.Delete delete = (Statement.Delete) parse("DELETE FROM t USING TIMEOUT 0ms AND TIMESTAMP 42 WHERE k = 1");
        assertThat(delete.attributes()).isEqualTo(new Statement.Attributes(null, integer("42"), duration("0ms")));
        Statement.Insert conditional = (Statement.Insert) parse("INSERT INTO t (k) VALUES (1) IF NOT EXISTS USING TIMEOUT 1s");
        assertThat(conditional.ifNotExists()).isTrue();
        assertThat(conditional.attributes().timeout()).isEqualTo(duration("1s"));
    }

    @Test
    void batchAndTruncateTakeATimeout() {
        Statement.Batch batch = (Statement.Batch) parse(
                "BEGIN UNLOGGED BATCH USING TIMEOUT 48h INSERT INTO t (k) VALUES (1); APPLY BATCH");
        assertThat(batch.attributes().timeout()).isEqualTo(duration("48h"));
        assertThat(((Statement.Truncate) parse("TRUNCATE TABLE t USING TIMEOUT 1000s")).timeout()).isEqualTo(duration("1000s"));
    }

    @Test
    void timeoutMayBeABindMarker() {
        Parser.Parsed parsed = Parser.parse("UPDATE t USING TIMEOUT :timeout AND TIMESTAMP ? SET v = ? WHERE k = 1");
        Statement.Update update = (Statement.Update) parsed.statement();
        assertThat(update.attributes().timeout()).isEqualTo(new Term.BindMarker(0, "timeout"));
        assertThat(update.attributes().timestamp()).isEqualTo(new Term.BindMarker(1, null));
        assertThat(parsed.markerCount()).isEqualTo(3);
        assertThat(((Statement.Select) parse("SELECT * FROM t USING TIMEOUT ?")).timeout()).isEqualTo(new Term.BindMarker(0, null));
    }

    @Test
    void optionsAStatementCannotTakeAreSyntaxErrors() {
        assertThatThrownBy(() -> parse("SELECT * FROM t USING TIMEOUT 60s AND TIMESTAMP 42"))
                .isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:38 mismatched input 'TIMESTAMP' expecting TIMEOUT");
        assertThatThrownBy(() -> parse("SELECT * FROM t USING TTL 10000")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("DELETE FROM t USING TIMEOUT 60s AND TTL 42 WHERE k = 42"))
                .isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:36 mismatched input 'TTL' expecting TIMESTAMP or TIMEOUT");
        assertThatThrownBy(() -> parse("TRUNCATE TABLE t USING TIMESTAMP 123456789")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("TRUNCATE TABLE t USING TIMEOUT 1h AND TTL 42")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("INSERT INTO t (k) VALUES (1) USING TIMEOUT 1s AND TIMEOUT 2s"))
                .isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:50 TIMEOUT given twice");
    }
}

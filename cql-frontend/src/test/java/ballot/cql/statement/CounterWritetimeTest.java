package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** writetime() and ttl() of a counter column, which Cassandra 5.0 answers (checked against a 5.0.9 node). */
class CounterWritetimeTest {
    private final CasFixture fixture = new CasFixture("CREATE TABLE ks.c (k int PRIMARY KEY, n counter)");

    @Test
    void aCounterHasTheTimestampOfItsUpdateAndNoTtl() {
        fixture.execute("UPDATE ks.c SET n = n + 5 WHERE k = 1");
        List<Map<String, Object>> rows = CasFixture.rows(fixture.execute("SELECT n, writetime(n), ttl(n) FROM ks.c WHERE k = 1"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("n")).isEqualTo(5L);
        assertThat(rows.get(0).get("writetime(n)")).isInstanceOf(Long.class).isNotEqualTo(0L);
        assertThat(rows.get(0)).containsEntry("ttl(n)", null);
    }
}

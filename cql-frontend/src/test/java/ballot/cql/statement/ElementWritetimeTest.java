package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** writetime(), ttl() and maxwritetime() of one set or map element, as Cassandra 5.0.9 answers them (checked). */
class ElementWritetimeTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int PRIMARY KEY, mp map<int, int>, st set<int>, fm frozen<map<int, int>>, l list<int>, v int)",
            "CREATE TABLE ks.fk (k frozen<map<int, int>> PRIMARY KEY, v int)");

    @Test
    void anElementHasItsCellsTimestampAndTtlOrNullIfAbsent() {
        // mp[2] is written apart, later and with a longer TTL, so that its answers are its own cell's, not the column's
        fixture.execute("BEGIN BATCH "
                + "INSERT INTO ks.t (k, mp, st, fm) VALUES (1, {1: 5}, {3}, {0: 1}) USING TIMESTAMP 77 AND TTL 500; "
                + "UPDATE ks.t USING TIMESTAMP 88 AND TTL 900 SET mp[2] = 6 WHERE k = 1; "
                + "APPLY BATCH");
        List<Map<String, Object>> rows = CasFixture.rows(fixture.execute(
                "SELECT writetime(mp[1]), ttl(mp[1]), maxwritetime(mp[1]), writetime(mp[2]), ttl(mp[2]), maxwritetime(mp[2]), "
                        + "writetime(mp[3]), writetime(mp), ttl(mp), writetime(st[3]), ttl(st[4]), writetime(fm[0]), writetime(fm[7]) "
                        + "FROM ks.t WHERE k = 1"));
        assertThat(CasFixture.columns(fixture.execute("SELECT writetime(mp[1]), ttl(st[3]) FROM ks.t WHERE k = 1")))
                .containsExactly("writetime(mp[1])", "ttl(st[3])");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).values()).containsExactlyElementsOf(Arrays.asList(77L, 500, 77L, 88L, 900, 88L,
                null, List.of(77L, 88L), List.of(500, 900), 77L, null, 77L, null));
    }

    @Test
    void refusedWhereElementSelectionIs() {
        assertThatThrownBy(() -> fixture.execute("SELECT writetime(l[0]) FROM ks.t")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Element selection is only allowed on sets and maps, but l is a list");
        assertThatThrownBy(() -> fixture.execute("SELECT writetime(v[0]) FROM ks.t")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Invalid element selection: v is of type int is not a collection");
    }

    @Test
    void refusedOnAnElementOfAPrimaryKeyColumnAsOnTheColumn() {
        for (String function : List.of("writetime", "ttl", "maxwritetime")) {
            assertThatThrownBy(() -> fixture.execute("SELECT " + function + "(k[1]) FROM ks.fk WHERE k = {1: 2}")).isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot use selection function " + function + " on PRIMARY KEY part k");
        }
    }

    @Test
    void aCollectionsWritetimesAndTtlsAreInItsElementsOrder() {
        fixture.execute("BEGIN BATCH "
                + "INSERT INTO ks.t (k, mp, st) VALUES (1, {1: 5}, {1}) USING TIMESTAMP 77 AND TTL 500; "
                + "UPDATE ks.t USING TIMESTAMP 88 AND TTL 900 SET mp[-1] = 6, st = st + {-1} WHERE k = 1; "
                + "APPLY BATCH");
        List<Map<String, Object>> rows = CasFixture.rows(fixture.execute(
                "SELECT mp, writetime(mp), ttl(mp), st, writetime(st) FROM ks.t WHERE k = 1"));
        assertThat(rows.get(0).values()).containsExactly(Map.of(-1, 6, 1, 5), List.of(88L, 77L), List.of(900, 500),
                java.util.Set.of(-1, 1), List.of(88L, 77L));
    }
}

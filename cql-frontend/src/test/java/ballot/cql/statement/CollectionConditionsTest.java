package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

/**
 * IF conditions comparing whole collections, as Cassandra 5.0 evaluates them (checked against a 5.0.9 node): a
 * non-frozen list, set or map compares as its frozen value; durations, null and empty collections cannot be compared.
 */
class CollectionConditionsTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>, st set<int>, m map<int, int>, ld list<duration>, v int)");

    {
        fixture.execute("INSERT INTO ks.t (k, l, st, m, ld) VALUES (1, [1, 2], {1, 2}, {1: 3}, [1h])");
    }

    private boolean applied(String condition) {
        fixture.execute("UPDATE ks.t SET v = 1 WHERE k = 1 IF " + condition);
        return fixture.lastUpdate() != null;
    }

    @Test
    void nonFrozenCollectionsCompareAsTheirFrozenValue() {
        assertThat(applied("l > [0]")).isTrue();
        assertThat(applied("l < [0]")).isFalse();
        assertThat(applied("l >= [1, 2]")).isTrue();
        assertThat(applied("l < [1, 2, 0]")).isTrue();
        assertThat(applied("st < {5}")).isTrue();
        assertThat(applied("m <= {1: 3}")).isTrue();
        assertThat(applied("m > {1: 3}")).isFalse();
    }

    @Test
    void durationsNullAndEmptyCollectionsCannotBeCompared() {
        refused("ld > [1h]", "Slice conditions are not supported on collections containing durations");
        refused("l > null", "Invalid comparison with null for operator \">\"");
        refused("l > []", "Invalid comparison with an empty list for operator \">\"");
        refused("m <= {}", "Invalid comparison with an empty map for operator \"<=\"");
    }

    private void refused(String condition, String message) {
        assertThatThrownBy(() -> fixture.execute("UPDATE ks.t SET v = 1 WHERE k = 1 IF " + condition))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }
}

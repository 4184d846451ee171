package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

/**
 * Conditional statements Cassandra 5.0 refuses, with its messages (checked against a 5.0.9 node): list indexes of
 * conditions checked when bound, whatever the row holds; a condition on a regular column needs the row's whole key;
 * conditions on counters.
 */
class ConditionRefusalsTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TABLE ks.t (k int, c int, v int, s int static, l list<int>, st set<int>, PRIMARY KEY (k, c))",
            "CREATE TABLE ks.n (k int PRIMARY KEY, n counter)");

    {
        fixture.execute("INSERT INTO ks.t (k, c, v, l) VALUES (1, 1, 1, [1, 2])");
    }

    @Test
    void aListIndexIsCheckedWhenBoundWhateverTheRowHolds() {
        refused("UPDATE ks.t SET v = 2 WHERE k = 1 AND c = 1 IF l[-1] = 1", "Invalid negative list index -1");
        refused("UPDATE ks.t SET v = 2 WHERE k = 1 AND c = 1 IF v = 5 AND l[-1] = null", "Invalid negative list index -1");
        refused("UPDATE ks.t SET v = 2 WHERE k = 9 AND c = 1 IF l[-1] IN (1)", "Invalid negative list index -1");
        refused("UPDATE ks.t SET v = 2 WHERE k = 1 AND c = 1 IF l[null] = 1", "Invalid null value for list element access");
        refused("UPDATE ks.t SET v = 2 WHERE k = 1 AND c = 1 IF st[1] = 1", "Invalid element access syntax for set column st");
    }

    @Test
    void aConditionOnARegularColumnNeedsTheWholeKey() {
        refused("UPDATE ks.t SET s = 2 WHERE k = 1 IF v = 1", "Some clustering keys are missing: c");
        refused("UPDATE ks.t SET s = 2 WHERE k = 1 IF s = 1 AND v = 1", "Some clustering keys are missing: c");
        refused("DELETE v FROM ks.t WHERE k = 1 IF s = 1",
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns");
        refused("DELETE v FROM ks.t WHERE k = 1 IF EXISTS",
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns");
        refused("DELETE v FROM ks.t WHERE k = 1", "Range deletions are not supported for specific columns");
    }

    @Test
    void countersTakeNoConditions() {
        refused("UPDATE ks.n SET n = n + 1 WHERE k = 1 IF n = 1", "Conditions on counters are not supported");
        refused("DELETE FROM ks.n WHERE k = 1 IF n = 1", "Conditions on counters are not supported");
        refused("UPDATE ks.n SET n = n + 1 WHERE k = 1 IF EXISTS", "Conditional updates are not supported on counter tables");
    }

    @Test
    void anElementOfANullListCannotBeChanged() {
        refused("DELETE l[0] FROM ks.t WHERE k = 1 AND c = 2 IF v = null", "Attempted to delete an element from a list which is null");
        refused("UPDATE ks.t SET l[0] = 5 WHERE k = 1 AND c = 2 IF v = null", "Attempted to set an element on a list which is null");
        refused("UPDATE ks.t SET l[5] = 5 WHERE k = 1 AND c = 1 IF v = 1", "List index 5 out of bound, list has size 2");
    }

    private void refused(String cql, String message) {
        assertThatThrownBy(() -> fixture.execute(cql)).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }
}

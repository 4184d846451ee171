package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.SyntaxException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Writes and deletes Cassandra 5.0.9 refuses, with its wording (each checked against a 5.0.9 node). */
class ModificationRefusalsTest {
    private final CasFixture fixture = new CasFixture(
            "CREATE TYPE ks.ud (a int, b int)",
            "CREATE TABLE ks.t (k int, c int, v int, w text, l list<int>, st set<int>, mp map<int, int>, fl frozen<list<int>>, "
                    + "u ud, fu frozen<ud>, PRIMARY KEY (k, c))",
            "CREATE TABLE ks.cnt (k int, c int, n counter, PRIMARY KEY (k, c))");

    /** A list with no element is null: setting or deleting by index says so, whatever the index. */
    @Test
    void anIndexIntoAMissingOrEmptyListFindsANullList() {
        fixture.assertInvalid("UPDATE ks.t SET l[0] = 1 WHERE k = 1 AND c = 1", "Attempted to set an element on a list which is null");
        fixture.assertInvalid("UPDATE ks.t SET l[-1] = 1 WHERE k = 1 AND c = 1", "Attempted to set an element on a list which is null");
        fixture.assertInvalid("DELETE l[2] FROM ks.t WHERE k = 1 AND c = 1", "Attempted to delete an element from a list which is null");
        fixture.execute("INSERT INTO ks.t (k, c, l) VALUES (2, 1, [])");
        fixture.assertInvalid("UPDATE ks.t SET l[0] = 1 WHERE k = 2 AND c = 1", "Attempted to set an element on a list which is null");
        fixture.execute("INSERT INTO ks.t (k, c, l) VALUES (3, 1, [7])");
        fixture.assertInvalid("UPDATE ks.t SET l[1] = 1 WHERE k = 3 AND c = 1", "List index 1 out of bound, list has size 1");
        fixture.assertInvalid("DELETE l[-1] FROM ks.t WHERE k = 3 AND c = 1", "List index -1 out of bound, list has size 1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "UPDATE ks.t SET st[1] = 1 WHERE k = 1 AND c = 1 | Invalid operation (st[1] = 1) for set column st",
        "UPDATE ks.t SET st[?] = 1 WHERE k = 1 AND c = 1 | Invalid operation (st[?] = 1) for set column st",
        "UPDATE ks.t SET v[1] = 1 WHERE k = 1 AND c = 1 | Invalid operation (v[1] = 1) for non collection column v",
        "UPDATE ks.t SET u[0] = 1 WHERE k = 1 AND c = 1 | Invalid operation (u[0] = 1) for non collection column u",
        "UPDATE ks.t SET fl[0] = 1 WHERE k = 1 AND c = 1 | Invalid operation (fl[0] = 1) for frozen collection column fl",
        "UPDATE ks.t SET v = 1 + v WHERE k = 1 AND c = 1 | Invalid operation (v = 1 - v) for non list column v",
        "UPDATE ks.t SET st = {1} + st WHERE k = 1 AND c = 1 | Invalid operation (st = {1} - st) for non list column st",
        "UPDATE ks.t SET fl = [1] + fl WHERE k = 1 AND c = 1 | Invalid operation (fl = [1] - fl) for frozen list column fl",
        "DELETE v[0] FROM ks.t WHERE k = 1 AND c = 1 | Invalid deletion operation for non collection column v",
        "DELETE u[0] FROM ks.t WHERE k = 1 AND c = 1 | Invalid deletion operation for non collection column u",
        "DELETE fl[0] FROM ks.t WHERE k = 1 AND c = 1 | Invalid deletion operation for frozen collection column fl",
        "DELETE fl.a FROM ks.t WHERE k = 1 AND c = 1 | Invalid field deletion operation for non-UDT column fl",
        "DELETE fu.a FROM ks.t WHERE k = 1 AND c = 1 | Frozen UDT column fu does not support field deletions",
        "DELETE st[null] FROM ks.t WHERE k = 1 AND c = 1 | Invalid null set element",
        "DELETE mp[null] FROM ks.t WHERE k = 1 AND c = 1 | Invalid null map key",
        "DELETE FROM ks.t WHERE k = 1 AND v = 1 AND w = 'a' | 'Non PRIMARY KEY columns found in where clause: v, w '",
        "UPDATE ks.cnt SET n = n + null WHERE k = 1 AND c = 1 | Invalid null value for counter increment/decrement",
        "UPDATE ks.cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF n = 1 | Conditions on counters are not supported",
        "UPDATE ks.cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF k = 1 | PRIMARY KEY column 'k' cannot have IF conditions",
        "UPDATE ks.cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF EXISTS | Conditional updates are not supported on counter tables",
    })
    void refusedAsCassandraWordsIt(String cql, String message) {
        fixture.assertInvalid(cql, message);
    }

    /** An assignment from another column is a syntax error in Cassandra's grammar. */
    @Test
    void anAssignmentFromAnotherColumnIsASyntaxError() {
        assertThatThrownBy(() -> fixture.execute("UPDATE ks.cnt SET n = m + 1 WHERE k = 1 AND c = 1"))
                .isInstanceOf(SyntaxException.class).hasMessage("Only expressions of the form X = X +<value> are supported.");
        assertThatThrownBy(() -> fixture.execute("UPDATE ks.t SET v = 1 + w WHERE k = 1 AND c = 1"))
                .isInstanceOf(SyntaxException.class).hasMessage("Only expressions of the form X = <value> + X are supported.");
    }
}

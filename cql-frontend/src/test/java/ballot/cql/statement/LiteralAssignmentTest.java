package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

/**
 * A collection, tuple or user type literal is checked element by element against its receiver before it is bound, as
 * Cassandra 5.0 checks it: the refusal names the literal and the element that does not fit (Cassandra 5.0.9's
 * messages below).
 */
class LiteralAssignmentTest {
    private final CasFixture f = new CasFixture(
            "CREATE TYPE addr (num int, street text)",
            "CREATE TABLE lit (k int PRIMARY KEY, l list<int>, s set<int>, m map<int, text>, tp tuple<int, int>, a frozen<addr>, "
                    + "v vector<float, 2>, lt list<frozen<tuple<int, int>>>, ll list<frozen<list<int>>>, i int)");

    private void assertRefused(String cql, String message) {
        assertThatThrownBy(() -> f.preparer.prepare(cql, "ks")).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void anElementThatDoesNotFitNamesTheLiteralAndTheElement() {
        assertRefused("INSERT INTO lit (k, l) VALUES (1, [1, 'a'])", "Invalid list literal for l: value 'a' is not of type int");
        assertRefused("INSERT INTO lit (k, s) VALUES (1, {1, 'a'})", "Invalid set literal for s: value 'a' is not of type int");
        assertRefused("INSERT INTO lit (k, m) VALUES (1, {1: 'a', 'b': 'c'})", "Invalid map literal for m: key 'b' is not of type int");
        assertRefused("INSERT INTO lit (k, m) VALUES (1, {1: 2})", "Invalid map literal for m: value 2 is not of type text");
        assertRefused("INSERT INTO lit (k, tp) VALUES (1, (1, 'a'))", "Invalid tuple literal for tp: component 1 is not of type int");
        assertRefused("INSERT INTO lit (k, a) VALUES (1, {num: 'x'})", "Invalid user type literal for a: field num is not of type int");
        assertRefused("INSERT INTO lit (k, v) VALUES (1, [1.0, 'a'])", "Invalid vector literal for v: value 'a' is not of type float");
        assertRefused("UPDATE lit SET l = l + [1, 1.5] WHERE k = 1", "Invalid list literal for l: value 1.5 is not of type int");
        assertRefused("INSERT INTO lit (k, l) VALUES (1, [1, now()])", "Invalid list literal for l: value now() is not of type int");
        assertRefused("INSERT INTO lit (k, l) VALUES (1, [1, (bigint) 2])", "Invalid list literal for l: value (bigint)2 is not of type int");
    }

    @Test
    void aNestedLiteralIsCheckedAsAWholeByTheOuterOne() {
        assertRefused("INSERT INTO lit (k, lt) VALUES (1, [(1, 'a')])",
                "Invalid list literal for lt: value (1, 'a') is not of type frozen<tuple<int, int>>");
        assertRefused("INSERT INTO lit (k, lt) VALUES (1, [(1, 2, 3)])",
                "Invalid list literal for lt: value (1, 2, 3) is not of type frozen<tuple<int, int>>");
        assertRefused("INSERT INTO lit (k, ll) VALUES (1, [[1, 'a']])", "Invalid list literal for ll: value [1, 'a'] is not of type frozen<list<int>>");
        assertRefused("INSERT INTO lit (k, ll) VALUES (1, [{1}])", "Invalid list literal for ll: value {1} is not of type frozen<list<int>>");
        assertThatCode(() -> f.preparer.prepare("INSERT INTO lit (k, ll, lt) VALUES (1, [[1, abs(2)]], [(1, 1 + 1)])", "ks"))
                .doesNotThrowAnyException();
    }

    @Test
    void aLiteralOfAnotherShapeIsRefusedAsCassandraRefusesIt() {
        assertRefused("INSERT INTO lit (k, s) VALUES (1, [1, 2])", "Unexpected receiver type 'set<int>'; only list and vector are expected");
        assertRefused("INSERT INTO lit (k, tp) VALUES (1, [1, 2])",
                "Unexpected receiver type 'frozen<tuple<int, int>>'; only list and vector are expected");
        assertRefused("INSERT INTO lit (k, l) VALUES (1, {})", "Invalid set literal for l of type list<int>");
        assertRefused("INSERT INTO lit (k, a) VALUES (1, {})", "Invalid set literal for a of type frozen<addr>");
    }
}

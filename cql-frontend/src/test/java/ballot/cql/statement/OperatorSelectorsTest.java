package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.FunctionFailureException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Operators, parentheses, type hints and collection literals in a selection, each with the value, result type and
 * column name Cassandra 5.0.9 answered for it (t's row: v = 10, w = 100, s = 'hello', a = 'asc').
 */
class OperatorSelectorsTest {
    private CasFixture f;

    @BeforeEach
    void setUp() {
        f = new CasFixture("CREATE TABLE t (k int PRIMARY KEY, v int, w bigint, s text, a ascii, ts timestamp, d date, dur duration, b blob)");
        f.execute("INSERT INTO t (k, v, w, s, a, ts, d, dur, b) VALUES (1, 10, 100, 'hello', 'asc', '2024-01-31 03:04:05+0000', "
                + "'2024-01-31', 1h30m, 0x01)");
    }

    /** The one column of the one row of {@code SELECT selector FROM t WHERE k = 1}: its name, type and value as text. */
    private String select(String selector) {
        Result result = f.execute("SELECT " + selector + " FROM t WHERE k = 1");
        ColumnSpec column = ((Rows) result).metadata().columns().get(0);
        java.nio.ByteBuffer value = ((Rows) result).rows().get(0)[0];
        return column.name() + " " + column.type().cqlName() + " " + (value == null ? "null" : column.type().asString(value));
    }

    /** Like {@link #select}, the value as JSON. */
    private String selectJson(String selector) {
        Result result = f.execute("SELECT " + selector + " FROM t WHERE k = 1");
        ColumnSpec column = ((Rows) result).metadata().columns().get(0);
        return column.name() + " " + column.type().cqlName() + " " + column.type().toJson(((Rows) result).rows().get(0)[0]);
    }

    private void assertFails(String selector, String message) {
        assertThatThrownBy(() -> f.execute("SELECT " + selector + " FROM t WHERE k = 1")).hasRootCauseInstanceOf(FunctionFailureException.class)
                .rootCause().hasMessage(message);
    }

    private void assertRefused(String selector, String message) {
        assertThatThrownBy(() -> f.execute("SELECT " + selector + " FROM t WHERE k = 1"))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void plusConcatenatesTextAndAsciiAsciiOnlyOfTwoAscii() {
        assertThat(select("s + 'x'")).isEqualTo("s + 'x' text hellox");
        assertThat(select("a + s")).isEqualTo("a + s text aschello");
        assertThat(select("a + 'x'")).isEqualTo("a + 'x' ascii ascx");
        assertThat(select("'a' + 'b'")).isEqualTo("'a' + 'b' ascii ab");
        assertThat(select("s + s + s")).isEqualTo("s + s + s text hellohellohello");
        assertThat(select("(ascii)'a' + 'b'")).isEqualTo("(ascii)'a' + 'b' ascii ab");
        assertRefused("s + v", "the '+' operation is not supported between s and v");
        assertRefused("s - 'x'", "the '-' operation is not supported between s and 'x'");
        assertRefused("s + b", "the '+' operation is not supported between s and b");
        assertRefused("s + null", "Ambiguous '+' operation with args s and NULL: use type hint to disambiguate, example '(int) ?'");
        assertRefused("s + ?", "Ambiguous '+' operation with args s and ?: use type hint to disambiguate, example '(int) ?'");
    }

    @Test
    void parenthesesGroupAndNameTheirSelector() {
        assertThat(select("(v + 1) * 2")).isEqualTo("(v + 1) * 2 int 22");
        assertThat(select("v + 1 * 2")).isEqualTo("v + 1 * 2 int 12");
        assertThat(select("(v + w) / 3")).isEqualTo("(v + w) / 3 bigint 36");
        assertThat(select("-(v + 1)")).isEqualTo("-(v + 1) int -11");
        assertThat(select("-(-v)")).isEqualTo("-(-v) int 10");
        assertThat(select("-(1)")).isEqualTo("-(1) int -1");
        assertThat(select("1 + 2.5")).isEqualTo("1 + 2.5 double 3.5");
        assertRefused("(v)", "Cannot infer type for term (v) in selection clause (try using a cast to force a type)");
        assertRefused("((v))", "Cannot infer type for term ((v)) in selection clause (try using a cast to force a type)");
    }

    @Test
    void negationTakesTheOneNumberTypeItsOperandFits() {
        assertRefused("-ts", "Ambiguous negation: use type casts to disambiguate");
        assertThatThrownBy(() -> f.execute("SELECT -s FROM t WHERE k = 1")).isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("Invalid call to function system._negate, none of its type signatures match");
    }

    @Test
    void timestampsAndDatesMoveByDurations() {
        assertThat(select("ts + 1h")).isEqualTo("ts + 1h timestamp 2024-01-31T04:04:05.000Z");
        assertThat(select("ts + 1mo")).as("the last day of a shorter month").isEqualTo("ts + 1mo timestamp 2024-02-29T03:04:05.000Z");
        assertThat(select("d - 2d")).isEqualTo("d - 2d date 2024-01-29");
        assertThat(select("ts + dur")).isEqualTo("ts + dur timestamp 2024-01-31T04:34:05.000Z");
        assertThat(select("w + 1d")).as("a bigint reads as a timestamp").isEqualTo("w + 1d timestamp 1970-01-02T00:00:00.100Z");
        assertFails("d + 1h", "the operation 'date + duration' failed: The duration must have a day precision. Was: 1h");
        assertFails("ts + 1us", "the operation 'timestamp + duration' failed: The duration must have a millisecond precision. Was: 1us");
        assertRefused("ts + 1", "Ambiguous '+' operation with args ts and 1: use type hint to disambiguate, example '(int) ?'");
        assertRefused("1h + ts", "the '+' operation is not supported between 1h and ts");
        assertRefused("dur + dur", "the '+' operation is not supported between dur and dur");
    }

    @Test
    void typeHintsRetypeSelectorsWhoseValuesTheTypeReads() {
        assertThat(select("(int) v")).isEqualTo("(int)v int 10");
        assertThat(select("(text) a")).isEqualTo("(text)a text asc");
        assertThat(select("(varint) v")).isEqualTo("(varint)v varint 10");
        assertThat(select("(int) v + 1")).isEqualTo("(int)v + 1 int 11");
        assertRefused("(bigint) v", "Cannot assign value (bigint)v to (bigint)v of type bigint");
        assertRefused("(ascii) s", "Cannot assign value (ascii)s to (ascii)s of type ascii");
    }

    @Test
    void aLiteralAloneHasNoType() {
        assertRefused("1", "Cannot infer type for term 1 in selection clause (try using a cast to force a type)");
        assertRefused("'a'", "Cannot infer type for term 'a' in selection clause (try using a cast to force a type)");
        assertThat(select("(int)1")).isEqualTo("(int)1 int 1");
    }

    @Test
    void collectionAndTupleLiteralsTakeTheirTypeFromUseOrElements() {
        assertThat(selectJson("[v, 1]")).isEqualTo("[v, 1] frozen<list<int>> [10, 1]");
        assertThat(selectJson("{s, 'a'}")).isEqualTo("{s, 'a'} frozen<set<text>> [\"a\", \"hello\"]");
        assertThat(selectJson("(list<int>)[1, 2]")).isEqualTo("(list<int>)[1, 2] frozen<list<int>> [1, 2]");
        assertThat(selectJson("(v, s)")).isEqualTo("(v, s) frozen<tuple<int, text>> [10, \"hello\"]");
        assertRefused("[1, 2]", "Cannot infer type for term [1, 2] in selection clause (try using a cast to force a type)");
        assertRefused("{s: v}", "Cannot infer type for term {s: v} in selection clause (try using a cast to force a type)");
        assertRefused("(list<bigint>)[v, 2]", "Cannot assign value (list<bigint>)[v, 2] to (list<bigint>)[v, 2] of type frozen<list<bigint>>");
    }

    @Test
    void termsResolveOperatorsForTheirReceiver() {
        f.execute("INSERT INTO t (k, s, a, w, d) VALUES (2, 'x' + 'y' + 'z', 'a' + 'b', 2147483647 + 1, (date)'2024-01-31' + 1mo)");
        assertThat(CasFixture.rows(f.execute("SELECT s, a, w, d FROM t WHERE k = 2")).get(0))
                .containsExactly(java.util.Map.entry("s", "xyz"), java.util.Map.entry("a", "ab"), java.util.Map.entry("w", 2147483648L),
                        java.util.Map.entry("d", java.time.LocalDate.parse("2024-02-29")));
        f.execute("UPDATE t SET v = -(2) * (1 + 2), ts = (timestamp)'2024-01-01 00:00:00+0000' + 1d WHERE k = 3");
        assertThat(CasFixture.rows(f.execute("SELECT v, ts FROM t WHERE k = 3")).get(0))
                .containsExactly(java.util.Map.entry("v", -6), java.util.Map.entry("ts", java.time.Instant.parse("2024-01-02T00:00:00Z")));
        assertThatThrownBy(() -> f.execute("UPDATE t SET s = 1 + 2 WHERE k = 4")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("the '+' operation is not supported between 1 and 2");
        assertThatThrownBy(() -> f.execute("UPDATE t SET v = ? + 1 WHERE k = 4")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Ambiguous '+' operation with args ? and 1: use type hint to disambiguate, example '(int) ?'");
    }

    /** {@code c = c + value} on a column that takes no such operation names the value as written, as Cassandra does. */
    @Test
    void anAdditionToAColumnThatTakesNoneNamesTheValueAsWritten() {
        assertThatThrownBy(() -> f.execute("UPDATE t SET v = v + 1 WHERE k = 1")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Invalid operation (v = v + 1) for non counter column v");
        assertThatThrownBy(() -> f.execute("UPDATE t SET s = s - 'a' WHERE k = 1")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Invalid operation (s = s - 'a') for non counter column s");
    }

    /** Only a set's or a map's elements can be selected, as in Cassandra, which refuses a list's by name. */
    @Test
    void elementsOfSetsAndMapsAreSelectedAndOfListsRefused() {
        assertThat(select("(set<int>){7}[7]")).isEqualTo("(set<int>){7}[7] int 7");
        assertThat(select("(map<int, text>){7: 'a'}[7]")).isEqualTo("(map<int, text>){7: 'a'}[7] text a");
        assertRefused("(list<int>)[1][0]", "Element selection is only allowed on sets and maps, but (list<int>)[1] is a list");
        assertRefused("(list<int>)[1][0..1]", "Slice selection is only allowed on sets and maps, but (list<int>)[1] is a list");
        assertRefused("v[0]", "Invalid element selection: v is of type int is not a collection");
        assertRefused("v[0..1]", "Invalid slice selection: v of type int is not a collection");
    }

    /**
     * A cast to the value's own type is the value, named as it is; a timestamp casts to bigint and varint as its
     * milliseconds, a bigint to date as a timestamp, an int to timestamp as a date's day number (Cassandra 5.0.9).
     */
    @Test
    void castsOfTimestampsAndToTheSameTypeAreCassandras() {
        assertThat(select("cast(v as int)")).isEqualTo("v int 10");
        assertThat(select("cast(count(*) as bigint)")).isEqualTo("count bigint 1");
        assertThat(select("cast(ts as bigint)")).isEqualTo("cast(ts as bigint) bigint 1706670245000");
        assertThat(select("cast(ts as varint)")).isEqualTo("cast(ts as varint) varint 1706670245000");
        assertThat(select("cast(w as date)")).isEqualTo("cast(w as date) date 1970-01-01");
        assertThat(select("cast(cast(v as timestamp) as bigint)"))
                .isEqualTo("cast(cast(v as timestamp) as bigint) bigint -185542586323200000");
        assertRefused("cast(ts as int)", "Cannot cast value of type timestamp to type int");
    }

    /** Cassandra 5.0.9 names the function as called, in lower case. */
    @Test
    void writetimeOfAKeyColumnIsRefusedNamingTheFunction() {
        assertRefused("WRITETIME(k)", "Cannot use selection function writetime on PRIMARY KEY part k");
        assertRefused("maxWriteTime(k)", "Cannot use selection function maxwritetime on PRIMARY KEY part k");
        assertRefused("ttl(k)", "Cannot use selection function ttl on PRIMARY KEY part k");
    }

    /**
     * Operands nest without a blow-up: each operand is fitted to a parameter type once, where it was resolved anew for
     * every signature of every enclosing operation (2^n resolutions: eight operators took seconds to prepare). The
     * timeout only turns such a blow-up into a failure instead of a hung build; it measures nothing.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void deeplyNestedOperationsPrepareAndCompute() {
        f.execute("UPDATE t SET v = " + String.join(" + ", Collections.nCopies(40, "1")) + " WHERE k = 2");
        assertThat(CasFixture.rows(f.execute("SELECT v FROM t WHERE k = 2")).get(0).get("v")).isEqualTo(40);
        assertThatThrownBy(() -> f.preparer.prepare("UPDATE t SET v = " + String.join(" + ", Collections.nCopies(12, "?"))
                + " WHERE k = 1", "ks")).hasMessageStartingWith("Ambiguous '+' operation with args");
    }

    /**
     * Literals nest in a selection without a blow-up: each element's argument is made once, where the text and the
     * inferred type made it anew (a list or tuple 22 deep took 0.7 to 1.8 s to prepare, each level doubling it).
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void deeplyNestedLiteralsSelectWithoutABlowUp() {
        String list = "[1]";
        String tuple = "1";
        for (int i = 0; i < 40; i++) {
            list = "[" + list + "]";
            tuple = "(" + tuple + ", 1)";
        }
        assertThat(CasFixture.rows(f.execute("SELECT collection_count(" + list + ") AS n FROM t WHERE k = 1")).get(0).get("n")).isEqualTo(1);
        String tupleCount = "SELECT collection_count(" + tuple + ") FROM t";
        assertThatThrownBy(() -> f.preparer.prepare(tupleCount, "ks"))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("Function system.collection_count requires a collection argument");
    }
}

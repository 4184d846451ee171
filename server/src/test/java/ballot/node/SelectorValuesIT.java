package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Values and names of computed selectors (casts, date conversions, aggregates, elements, JSON) as Cassandra 5.0 gives them. */
class SelectorValuesIT {
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        node = TestNode.start("selectors");
        session = node.session();
        session.execute("CREATE KEYSPACE sv WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static Row one(String cql) {
        return session.execute(cql).one();
    }

    private static List<String> names(ResultSet rs) {
        List<String> names = new ArrayList<>();
        for (ColumnDefinition c : rs.getColumnDefinitions()) names.add(c.getName().asInternal());
        return names;
    }

    @Test
    void numericCastsUseJavasPrimitiveConversions() {
        session.execute("CREATE TABLE sv.casts (k int PRIMARY KEY, f float, d double, dec decimal, vi varint, b bigint, i int)");
        session.execute("INSERT INTO sv.casts (k, f, d) VALUES (1, NaN, -Infinity)");
        session.execute("INSERT INTO sv.casts (k, f, d) VALUES (2, 3.4028235E38, 1.7976931348623157E308)");
        session.execute("INSERT INTO sv.casts (k, dec, vi, b, i) VALUES (3, 0.10, 1180591620717411303424, 9223372036854775807, 5)");
        session.execute("INSERT INTO sv.casts (k, dec) VALUES (4, 10000000000.7)");

        Row nan = one("SELECT cast(f as double), cast(f as int), cast(d as float), cast(d as varint), cast(d as text) FROM sv.casts WHERE k = 1");
        assertThat(nan.getDouble(0)).isNaN();
        assertThat(nan.getInt(1)).isZero();
        assertThat(nan.getFloat(2)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(nan.getBigInteger(3)).isEqualTo(BigInteger.valueOf(Long.MIN_VALUE));
        assertThat(nan.getString(4)).isEqualTo("-Infinity");

        Row max = one("SELECT cast(f as double), cast(f as int), cast(d as bigint), cast(d as decimal), cast(f as text), cast(d as float), "
                + "cast(f as smallint) FROM sv.casts WHERE k = 2");
        assertThat(max.getDouble(0)).isEqualTo(3.4028234663852886E38);
        assertThat(max.getInt(1)).isEqualTo(Integer.MAX_VALUE);
        assertThat(max.getLong(2)).isEqualTo(Long.MAX_VALUE);
        assertThat(max.getBigDecimal(3)).isEqualTo(new BigDecimal("1.7976931348623157E+308"));
        assertThat(max.getString(4)).isEqualTo("3.4028235E38");
        assertThat(max.getFloat(5)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(max.getShort(6)).isEqualTo((short) -1); // (short) of the int value 2147483647

        Row exact = one("SELECT cast(dec as float), cast(dec as double), cast(vi as double), cast(vi as bigint), cast(b as decimal), "
                + "cast(i as decimal), cast(vi as decimal), cast(dec as decimal), cast(dec as text), cast(dec as varint) FROM sv.casts WHERE k = 3");
        assertThat(exact.getFloat(0)).isEqualTo(0.1f);
        assertThat(exact.getDouble(1)).isEqualTo(0.1);
        assertThat(exact.getDouble(2)).isEqualTo(1.1805916207174113E21);
        assertThat(exact.getLong(3)).isZero(); // 2^70's low 64 bits
        assertThat(exact.getBigDecimal(4)).as("a bigint through its long value").isEqualTo(new BigDecimal("9223372036854775807"));
        assertThat(exact.getBigDecimal(5)).as("an int through its long value").isEqualTo(new BigDecimal("5"));
        assertThat(exact.getBigDecimal(6)).as("a varint exactly").isEqualTo(new BigDecimal("1180591620717411303424"));
        assertThat(exact.getBigDecimal(7)).isEqualTo(new BigDecimal("0.10"));
        assertThat(exact.getString(8)).isEqualTo("0.10");
        assertThat(exact.getBigInteger(9)).isEqualTo(BigInteger.ZERO);

        assertThat(one("SELECT cast(f as decimal) FROM sv.casts WHERE k = 2").getBigDecimal(0)).as("a float from its shortest decimal string")
                .isEqualTo(new BigDecimal("3.4028235E+38"));
        assertThatThrownBy(() -> one("SELECT cast(f as decimal) FROM sv.casts WHERE k = 1")).as("NaN has no decimal")
                .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.FunctionFailureException.class)
                .hasMessageContaining("execution of 'system.castasdecimal[float]' failed");

        session.execute("CREATE TABLE sv.uncastable (k int PRIMARY KEY, l list<int>, b blob, t text, u uuid)");
        for (String cast : List.of("cast(l as text)", "cast(b as text)", "cast(t as ascii)")) {
            assertThatThrownBy(() -> one("SELECT " + cast + " FROM sv.uncastable")).as(cast + ": no such cast in Cassandra")
                    .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.InvalidQueryException.class).hasMessageContaining("Cannot cast");
        }
        assertThat(session.execute("SELECT cast(u as text), cast(k as ascii) FROM sv.uncastable").all()).isEmpty();

        Row wide = one("SELECT cast(dec as int), cast(dec as bigint) FROM sv.casts WHERE k = 4");
        assertThat(wide.getInt(0)).isEqualTo(1410065408); // the low 32 bits of 10000000000
        assertThat(wide.getLong(1)).isEqualTo(10000000000L);
    }

    @Test
    void timestampsBeforeTheEpochTruncateToTheirDate() {
        session.execute("CREATE TABLE sv.dates (k int PRIMARY KEY, t timestamp, u timeuuid)");
        session.execute("INSERT INTO sv.dates (k, t, u) VALUES (1, -1, minTimeuuid(-1))");
        session.execute("INSERT INTO sv.dates (k, t) VALUES (2, -86400001)");
        session.execute("INSERT INTO sv.dates (k, t) VALUES (3, -86399500)");

        Row r = one("SELECT todate(t), cast(t as date), to_date(u), cast(u as date) FROM sv.dates WHERE k = 1");
        for (int i = 0; i < 4; i++) assertThat(r.getLocalDate(i)).as("column %d", i).isEqualTo(LocalDate.of(1970, 1, 1));
        r = one("SELECT todate(t), cast(t as date) FROM sv.dates WHERE k = 2");
        assertThat(r.getLocalDate(0)).isEqualTo(LocalDate.of(1969, 12, 31));
        assertThat(r.getLocalDate(1)).isEqualTo(LocalDate.of(1969, 12, 31));
        // whole seconds are floored before days are truncated: -86399.5 s is -86400 s, day -1
        r = one("SELECT todate(t) FROM sv.dates WHERE k = 3");
        assertThat(r.getLocalDate(0)).isEqualTo(LocalDate.of(1969, 12, 31));
    }

    @Test
    void decimalSumKeepsScaleAndAvgRoundsToTheRunningScale() {
        session.execute("CREATE TABLE sv.decimals (k int, c int, v decimal, PRIMARY KEY (k, c))");
        session.execute("INSERT INTO sv.decimals (k, c, v) VALUES (1, 1, 0.10)");
        session.execute("INSERT INTO sv.decimals (k, c, v) VALUES (1, 2, 9)");
        session.execute("INSERT INTO sv.decimals (k, c, v) VALUES (1, 3, 10)");

        Row r = one("SELECT avg(v), sum(v) FROM sv.decimals WHERE k = 1");
        assertThat(r.getBigDecimal(0)).isEqualTo(new BigDecimal("6.37"));
        assertThat(r.getBigDecimal(1)).isEqualTo(new BigDecimal("19.10"));
        r = one("SELECT avg(v), sum(v) FROM sv.decimals WHERE k = 2");
        assertThat(r.getBigDecimal(0)).isEqualTo(BigDecimal.ZERO);
        assertThat(r.getBigDecimal(1)).isEqualTo(BigDecimal.ZERO);
    }

    @Test
    void elementSelectorsAreNamedByTheirKeyAsWritten() {
        session.execute("CREATE TABLE sv.elements (k int PRIMARY KEY, m map<text, int>, s list<int>, st set<text>)");
        session.execute("INSERT INTO sv.elements (k, m, s, st) VALUES (1, {'a': 1, 'it''s': 2}, [1, 2, 3], {'x'})");

        ResultSet rs = session.execute("SELECT m['a'], max(m['a']), m['it''s'], st['x'] FROM sv.elements");
        assertThat(names(rs)).containsExactly("m['a']", "system.max(m['a'])", "m['it's']", "st['x']");
        assertThat(rs.one().getInt(2)).isEqualTo(2);

        rs = session.execute(session.prepare("SELECT m[?], m[:key] FROM sv.elements").bind("a", "a"));
        assertThat(names(rs)).containsExactly("m[?]", "m[?]");
    }

    @Test
    void jsonKeysAreColumnNamesQuotedOnlyWhenNotLowerCase() {
        session.execute("CREATE TABLE sv.json (k int PRIMARY KEY, v int, \"Cap\" int)");
        session.execute("INSERT INTO sv.json (k, v, \"Cap\") VALUES (1, 1, 3)");

        Row r = one("SELECT JSON k, v + 1, toJson(v), cast(v as text), \"Cap\" FROM sv.json");
        assertThat(r.getString(0)).isEqualTo(
                "{\"k\": 1, \"v + 1\": 2, \"system.to_json(v)\": \"1\", \"cast(v as text)\": \"1\", \"\\\"Cap\\\"\": 3}");
    }

    /** Cassandra 5.0 answers writetime, ttl and maxwritetime of a non-frozen collection element by element. */
    @Test
    void writetimeTtlAndMaxwritetimeOfANonFrozenCollection() {
        session.execute("CREATE TABLE sv.coll (k int PRIMARY KEY, l list<int>, m map<text, int>)");
        session.execute("INSERT INTO sv.coll (k, l, m) VALUES (1, [1, 2], {'a': 1}) USING TIMESTAMP 100");
        session.execute("UPDATE sv.coll USING TIMESTAMP 200 AND TTL 2000 SET l = l + [3], m['b'] = 2 WHERE k = 1");
        Row r = one("SELECT writetime(l), writetime(m), maxwritetime(l), maxwritetime(m), ttl(m) FROM sv.coll WHERE k = 1");
        assertThat(r.getList(0, Long.class)).containsExactly(100L, 100L, 200L);
        assertThat(r.getList(1, Long.class)).containsExactly(100L, 200L);
        assertThat(r.getLong(2)).isEqualTo(200L);
        assertThat(r.getLong(3)).isEqualTo(200L);
        assertThat(r.getColumnDefinitions().get(4).getType().asCql(false, false)).isEqualTo("list<int>");
        session.execute("INSERT INTO sv.coll (k) VALUES (2)");
        Row empty = one("SELECT writetime(l), maxwritetime(m) FROM sv.coll WHERE k = 2");
        assertThat(empty.isNull(0)).isTrue();
        assertThat(empty.isNull(1)).isTrue();
    }
}

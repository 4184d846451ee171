package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cassandra 5.0's native functions as Cassandra 5.0.9 answers them: values, result column names and types, refusals. */
class NativeFunctionsTest {
    private final CasFixture db = new CasFixture(
            "CREATE TABLE n (k int PRIMARY KEY, ti tinyint, si smallint, i int, bi bigint, f float, d double, dec decimal, vi varint, t text)",
            "CREATE TABLE c (k int PRIMARY KEY, cnt counter)",
            "CREATE TABLE coll (k int PRIMARY KEY, s set<int>, l list<int>, m map<text, int>, fm frozen<map<text, int>>, sd set<decimal>, "
                    + "lt list<text>, lti list<tinyint>, ld list<double>, v vector<float, 2>)");

    private List<Object> row(String cql, Object... markers) {
        List<Object> out = new ArrayList<>();
        Result result = db.execute(cql, options(markers));
        for (var e : CasFixture.rows(result).get(0).entrySet()) out.add(e.getValue());
        return out;
    }

    /** Each result column as "name type". */
    private List<String> columns(String cql, Object... markers) {
        List<String> out = new ArrayList<>();
        for (ColumnSpec c : ((Rows) db.execute(cql, options(markers))).metadata().columns()) out.add(c.name() + " " + c.type().cqlName());
        return out;
    }

    private static QueryOptions options(Object... markers) {
        List<ByteBuffer> values = new ArrayList<>();
        for (Object m : markers) values.add(m == null ? null : ByteBuffer.allocate(4).putInt(0, (Integer) m));
        return new QueryOptions(ConsistencyLevel.QUORUM, values, null, false, -1, null, ConsistencyLevel.LOCAL_SERIAL, null, "ks", null);
    }

    /** Refused at preparation or execution; the markers, if any, bound to null. */
    private void assertRefused(String cql, ErrorCode code, String message) {
        db.assertRefused(cql, options(new Object[(int) cql.chars().filter(ch -> ch == '?').count()]), code, message);
    }

    @Test
    void mathFunctionsKeepTheirArgumentsTypeAndConvertBackAsJavaCasts() {
        db.execute("INSERT INTO n (k, ti, si, i, bi, f, d, dec, vi) VALUES (1, -128, -32768, -2147483648, -9223372036854775808, -1.5, -2.5, -3.14159, -12345678901234567890)");
        db.execute("INSERT INTO n (k, ti, si, i, bi, f, d, dec, vi) VALUES (2, 5, 7, 9, 11, 2.5, 3.5, 2.5, 10)");

        assertThat(columns("SELECT abs(ti), abs(i), exp(f), log(dec), log10(vi), round(d) FROM n WHERE k = 2")).containsExactly(
                "system.abs(ti) tinyint", "system.abs(i) int", "system.exp(f) float", "system.log(dec) decimal",
                "system.log10(vi) varint", "system.round(d) double");
        assertThat(row("SELECT abs(ti), abs(si), abs(i), abs(bi), abs(f), abs(d), abs(dec), abs(vi) FROM n WHERE k = 1")).as("abs(minimum) wraps")
                .containsExactly((byte) -128, (short) -32768, Integer.MIN_VALUE, Long.MIN_VALUE, 1.5f, 2.5, new BigDecimal("3.14159"),
                        new BigInteger("12345678901234567890"));
        assertThat(row("SELECT exp(ti), exp(si), exp(i), exp(bi), exp(f), exp(d), exp(dec), exp(vi) FROM n WHERE k = 2")).containsExactly(
                (byte) -108, (short) 1096, 8103, 59874L, 12.182494f, 33.11545195869231,
                new BigDecimal("12.182493960703473438070175951168"), BigInteger.valueOf(22026));
        assertThat(row("SELECT log(ti), log(i), log(f), log(dec), log10(bi), log10(d), log10(dec), log10(vi) FROM n WHERE k = 2")).containsExactly(
                (byte) 1, 2, 0.91629076f, new BigDecimal("0.91629073187415506518352721176801"), 1L, 0.5440680443502757,
                new BigDecimal("0.39794000867203760957252221055101"), BigInteger.ONE);
        assertThat(row("SELECT round(f), round(d), round(dec), round(i) FROM n WHERE k = 1")).as("Math.round, and HALF_UP for a decimal")
                .containsExactly(-1.0f, -2.0, new BigDecimal("-3"), Integer.MIN_VALUE);
        assertThat(row("SELECT exp((int)100), log((int)0), log((int)-1), round((double)1e300), round(-2.5), round((decimal)2.5) FROM n WHERE k = 2"))
                .as("saturating and NaN to 0 as Java's casts").containsExactly(Integer.MAX_VALUE, Integer.MIN_VALUE, 0, 9.223372036854776E18, -2.0,
                        new BigDecimal("3"));
    }

    @Test
    void aCountersMathIsACounter() {
        db.execute("UPDATE c SET cnt = cnt - 5 WHERE k = 1");
        assertThat(columns("SELECT abs(cnt) FROM c WHERE k = 1")).containsExactly("system.abs(cnt) counter");
        assertThat(row("SELECT abs(cnt), exp(cnt), log(cnt), round(cnt) FROM c WHERE k = 1")).containsExactly(5L, 0L, 0L, -5L);
    }

    @Test
    void theLogOfADecimalOrVarintAtMostZeroIsAServerErrorAsInCassandra() {
        db.execute("INSERT INTO n (k, dec, vi) VALUES (1, 0, -1)");
        assertRefused("SELECT log(dec) FROM n WHERE k = 1", ErrorCode.SERVER_ERROR, "java.lang.ArithmeticException: Natural log of number zero or less");
        assertRefused("SELECT log10(vi) FROM n WHERE k = 1", ErrorCode.SERVER_ERROR, "java.lang.ArithmeticException: Log10 of number zero or less");
    }

    @Test
    void aLiteralArgumentTakesItsPreferredTypeAndAMarkerNeedsAReceiverOrAHint() {
        db.execute("INSERT INTO n (k, i) VALUES (1, 3)");
        assertThat(columns("SELECT abs(-1), abs(3000000000), abs(30000000000000000000), abs(1.5), abs(123456789.123456789), abs((int)?) FROM n WHERE k = 1", 5))
                .containsExactly("system.abs(-1) int", "system.abs(3000000000) bigint", "system.abs(30000000000000000000) varint",
                        "system.abs(1.5) double", "system.abs(123456789.123456789) decimal", "system.abs((int)?) int");
        assertThat(row("SELECT abs(-1), abs(abs(i)) FROM n WHERE k = 1")).containsExactly(1, 3);
        assertRefused("SELECT abs(?) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Ambiguous call to function abs (can be matched by following signatures: " + signatures("abs", true) + "): use type casts to disambiguate");
        assertRefused("SELECT abs(null) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Ambiguous call to function abs (can be matched by following signatures: " + signatures("abs", false) + "): use type casts to disambiguate");
        assertThat(row("SELECT k FROM n WHERE k = abs(?)", -1)).as("the receiver picks the overload").containsExactly(1);
        db.execute("INSERT INTO n (k, bi) VALUES (2, abs(-7))");
        assertThat(row("SELECT bi FROM n WHERE k = 2")).containsExactly(7L);
    }

    /**
     * How Ballot lists a numeric function's signatures in its refusals, in the order it registers them (Cassandra lists
     * the same ones in a hash order).
     */
    private static String signatures(String function, boolean counter) {
        List<String> types = new ArrayList<>(List.of("tinyint", "smallint", "int", "bigint", "float", "double", "varint", "decimal"));
        if (counter) types.add("counter");
        return String.join(", ", types.stream().map(t -> "system." + function + " : (" + t + ") -> " + t).toList());
    }

    @Test
    void aCallNoOverloadTakesIsRefusedListingTheSignatures() {
        assertRefused("SELECT abs(t) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Invalid call to function abs, none of its type signatures match (known type signatures: " + signatures("abs", true) + ")");
        assertRefused("SELECT round(i, 2) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Invalid call to function round, none of its type signatures match (known type signatures: " + signatures("round", true) + ")");
        assertRefused("UPDATE n SET t = abs(-2) WHERE k = 1", ErrorCode.INVALID,
                "Invalid call to function abs, none of its type signatures match (known type signatures: " + signatures("abs", true) + ")");
        assertRefused("SELECT k FROM n WHERE k = abs(1.5)", ErrorCode.INVALID,
                "Invalid call to function abs, none of its type signatures match (known type signatures: " + signatures("abs", true) + ")");
    }

    @Test
    void collectionFunctionsTakeAnyCollectionOfTheirKind() {
        db.execute("INSERT INTO coll (k, s, l, m, fm, sd, lt, lti, ld) VALUES (1, {3, 1, 2}, [5, 4, 4], {'b': 2, 'a': 1}, {'c': 3}, {1.5, 2.25}, "
                + "['z', 'y'], [100, 100], [1.5, 2.5])");
        db.execute("INSERT INTO coll (k, fm) VALUES (2, {})");

        assertThat(columns("SELECT map_keys(m), map_values(fm), collection_count(s), collection_min(lt), collection_avg(sd) FROM coll WHERE k = 1"))
                .containsExactly("system.map_keys(m) frozen<set<text>>", "system.map_values(fm) frozen<list<int>>", "system.collection_count(s) int",
                        "system.collection_min(lt) text", "system.collection_avg(sd) decimal");
        assertThat(row("SELECT map_keys(m), map_values(m), map_keys(fm), collection_count(s), collection_count(l), collection_count(m) FROM coll WHERE k = 1"))
                .containsExactly(java.util.Set.of("a", "b"), List.of(1, 2), java.util.Set.of("c"), 3, 3, 2);
        assertThat(row("SELECT collection_min(s), collection_max(s), collection_min(l), collection_max(lt) FROM coll WHERE k = 1"))
                .containsExactly(1, 3, 4, "z");
        assertThat(row("SELECT collection_sum(s), collection_avg(l), collection_sum(sd), collection_avg(sd), collection_sum(lti), collection_avg(lti), "
                + "collection_avg(ld) FROM coll WHERE k = 1")).as("sums wrap in the element type; a decimal mean is a running one")
                .containsExactly(6, 4, new BigDecimal("3.75"), new BigDecimal("1.88"), (byte) -56, (byte) 100, 2.0);
        assertThat(row("SELECT map_keys(fm), collection_count(fm), map_keys(m), collection_count(s) FROM coll WHERE k = 2"))
                .as("empty, and null").containsExactly(java.util.Set.of(), 0, null, null);
        assertThat(row("SELECT k FROM coll WHERE k = collection_count({1, 2})")).as("a literal of constants has a type").containsExactly(2);
    }

    @Test
    void aCollectionFunctionRefusesOtherTypesAndUntypedArguments() {
        assertRefused("SELECT collection_min(m) FROM coll WHERE k = 1", ErrorCode.INVALID,
                "Function system.collection_min requires a set or list argument, but found argument m of type map<text, int>");
        assertRefused("SELECT collection_sum(lt) FROM coll WHERE k = 1", ErrorCode.INVALID,
                "Function system.collection_sum requires a numeric set/list argument, but found argument lt of type list<text>");
        assertRefused("SELECT collection_count(v) FROM coll WHERE k = 1", ErrorCode.INVALID,
                "Function system.collection_count requires a collection argument, but found argument v of type vector<float, 2>");
        assertRefused("SELECT map_keys(?) FROM coll WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument ? in call to function system.map_keys(map): use type casts to disambiguate");
        assertRefused("SELECT map_keys(m, m) FROM coll WHERE k = 1", ErrorCode.INVALID, "Invalid number of arguments for function system.map_keys(map)");
        assertRefused("INSERT INTO coll (k, s) VALUES (5, map_keys({1: 2}))", ErrorCode.INVALID,
                "Type error: cannot assign result of function system.map_keys (type frozen<set<int>>) to s (type set<int>)");
    }

    /** An argument fits a parameter whose type reads its values (Cassandra's isValueCompatibleWith): a blob reads any. */
    @Test
    void anArgumentFitsAParameterWhoseTypeReadsItsValues() {
        db.execute("INSERT INTO n (k, i, bi) VALUES (1, 5, 7)");
        db.execute("INSERT INTO coll (k, l) VALUES (1, [1, 2])");
        assertThat(columns("SELECT blobasint(i), blob_as_bigint(bi), tounixtimestamp(bi), to_date(bi) FROM n WHERE k = 1")).containsExactly(
                "system.blobasint(i) int", "system.blob_as_bigint(bi) bigint", "system.tounixtimestamp(bi) bigint", "system.to_date(bi) date");
        assertThat(row("SELECT blobasint(i), tounixtimestamp(bi) FROM n WHERE k = 1")).containsExactly(5, 7L);
        assertRefused("SELECT blob_as_int(l) FROM coll WHERE k = 1", ErrorCode.INVALID, "In call to function system.blob_as_int, value "
                + "0x0000000200000004000000010000000400000002 is not a valid binary representation for type int");
        assertRefused("SELECT to_timestamp(bi) FROM n WHERE k = 1", ErrorCode.INVALID, "Invalid call to function to_timestamp, none of its type "
                + "signatures match (known type signatures: system.to_timestamp : (timeuuid) -> timestamp, system.to_timestamp : (date) -> timestamp)");
    }

    /**
     * The type a collection or masking function infers for a literal, as Cassandra 5.0: in a selection a list's or
     * set's of the one type its elements give; in a term a set's or map's so, never a list's (it may be a vector's);
     * a call's or operation's what it resolves to. A factory's function is an operand like any other.
     */
    @Test
    void aFactoryFunctionInfersALiteralsTypeFromItsElements() {
        db.execute("INSERT INTO n (k, i) VALUES (1, 5)");
        db.execute("INSERT INTO coll (k) VALUES (1)");
        assertThat(row("SELECT collection_count([1, 2, 3]), collection_count({1, 2}), collection_count([[1]]), collection_count([2, ?]) "
                + "FROM coll WHERE k = 1", 7)).containsExactly(3, 2, 1, 2);
        assertThat(columns("SELECT mask_default((1, i)), mask_default(1 + 1), abs((1)) FROM n WHERE k = 1")).containsExactly(
                "system.mask_default((1, i)) frozen<tuple<int, int>>", "system.mask_default(1 + 1) int", "system.abs((1)) int");
        assertRefused("SELECT collection_count([i, 2000000000000]) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument [i, 2000000000000] in call to function system.collection_count(collection): use type casts to "
                + "disambiguate");
        assertRefused("SELECT collection_max([1, 2.5]) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument [1, 2.5] in call to function system.collection_max(collection): use type casts to disambiguate");

        assertRefused("UPDATE n SET i = collection_count([1, 2]) WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument [1, 2] in call to function system.collection_count(collection): use type casts to disambiguate");
        assertRefused("UPDATE n SET t = mask_default((1, 2)) WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument (1, 2) in call to function system.mask_default(any): use type casts to disambiguate");
        assertRefused("UPDATE n SET i = mask_default(abs(?)) WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument abs(?) in call to function system.mask_default(any): use type casts to disambiguate");
        db.execute("UPDATE n SET i = collection_count({1, 2}) + 1, t = 'a' + mask_default('b'), bi = (bigint) abs(-2), "
                + "d = mask_default(1.5 * 2) WHERE k = 2");
        assertThat(row("SELECT i, t, bi, d FROM n WHERE k = 2")).containsExactly(3, "a****", 2L, 0.0);
        db.execute("UPDATE n SET i = -collection_count({(int) 1: 'a'}) WHERE k = 3");
        assertThat(row("SELECT i FROM n WHERE k = 3")).containsExactly(-1);
        assertRefused("UPDATE n SET si = -collection_count({(int) 1: 'a'}) WHERE k = 4", ErrorCode.INVALID,
                "Type error: cannot assign result of function system.collection_count (type int) to arg0(system._negate) (type smallint)");
    }

    @Test
    void maskingFunctionsMaskNullsTooAndKeepTheValuesType() {
        db.execute("INSERT INTO n (k, i, t) VALUES (1, 7, 'hello')");
        db.execute("INSERT INTO n (k) VALUES (2)");
        assertThat(columns("SELECT mask_null(i), mask_default(t), mask_replace(i, 0), mask_inner(t, 1, 1), mask_hash(t), mask_null(1), "
                + "mask_inner(t, 1, 1, null) FROM n WHERE k = 1")).containsExactly("system.mask_null(i) int", "system.mask_default(t) text",
                "system.mask_replace(i, 0) int", "system.mask_inner(t, 1, 1) text", "system.mask_hash(t) blob", "system.mask_null(1) int",
                "system.mask_inner(t, 1, 1, NULL) text");
        assertThat(row("SELECT mask_null(i), mask_default(i), mask_default(t), mask_replace(t, 'xx'), mask_inner(t, 1, 1), mask_outer(t, 1, 1, '#'), "
                + "mask_inner(t, null, 2), mask_inner(t, -1, 1), mask_outer(t, 10, 10) FROM n WHERE k = 1"))
                .containsExactly(null, 0, "****", "xx", "h***o", "#ell#", "***lo", "****o", "*****");
        assertThat(row("SELECT mask_null(i), mask_default(i), mask_default(t), mask_replace(t, 'xx'), mask_inner(t, 1, 1), mask_hash(t) FROM n WHERE k = 2"))
                .as("a null value is masked too, but not padded or hashed").containsExactly(null, 0, "****", "xx", null, null);
        assertThat(row("SELECT mask_hash(t), mask_hash(t, 'MD5') FROM n WHERE k = 1")).containsExactly(
                ByteBuffer.wrap(java.util.HexFormat.of().parseHex("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")).asReadOnlyBuffer(),
                ByteBuffer.wrap(java.util.HexFormat.of().parseHex("5d41402abc4b2a76b9719d911017c592")).asReadOnlyBuffer());
    }

    @Test
    void aMaskingFunctionRefusesWhatCassandraRefuses() {
        assertRefused("SELECT mask_inner(i, 1, 1) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Function system.mask_inner requires an argument of type [text|varchar|ascii], but found argument i of type int");
        assertRefused("SELECT mask_inner(t, 1) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Invalid number of arguments for function system.mask_inner([text|varchar|ascii], int, int, [text])");
        assertRefused("SELECT mask_replace(i, 'a') FROM n WHERE k = 1", ErrorCode.INVALID,
                "Type error: 'a' cannot be passed as argument 1 of function system.mask_replace of type int");
        assertRefused("SELECT mask_null(?) FROM n WHERE k = 1", ErrorCode.INVALID,
                "Cannot infer type of argument ? in call to function system.mask_null(any): use type casts to disambiguate");
        db.execute("INSERT INTO n (k, t) VALUES (1, 'hello')");
        assertRefused("SELECT mask_inner(t, 1, 1, '##') FROM n WHERE k = 1", ErrorCode.INVALID,
                "The padding argument for function system.mask_inner should be single-character, but '##' has 2 characters.");
        assertRefused("SELECT mask_hash(t, 'NOPE') FROM n WHERE k = 1", ErrorCode.INVALID, "Hash algorithm not found: NOPE");
    }

    /** A blob conversion refuses bytes that are no value of its type by its name as called, as Cassandra 5.0.9. */
    @Test
    void blobConversionsRefuseInvalidBytesNamingTheFunction() {
        db.execute("INSERT INTO n (k) VALUES (1)");
        assertThat(row("SELECT blob_as_varchar(0x61), blobAsInt(0x), varchar_as_blob('a') FROM n WHERE k = 1"))
                .containsExactly("a", null, ByteBuffer.wrap(new byte[] {'a'}));
        assertRefused("SELECT blobAsInt(0x0001) FROM n WHERE k = 1", ErrorCode.INVALID,
                "In call to function system.blobasint, value 0x0001 is not a valid binary representation for type int");
        assertRefused("SELECT blob_as_text(0xcafe) FROM n WHERE k = 1", ErrorCode.INVALID,
                "In call to function system.blob_as_text, value 0xcafe is not a valid binary representation for type text");
        assertRefused("SELECT blobAsVarchar(0xff) FROM n WHERE k = 1", ErrorCode.INVALID,
                "In call to function system.blobasvarchar, value 0xff is not a valid binary representation for type varchar");
    }

    /**
     * A function's name is matched exactly, as a column's is: an unquoted name is lower-cased, a quoted one is kept, so
     * {@code "abs"} is abs and {@code "ABS"} no function. A name qualified by {@code system} is a native function; by
     * any other keyspace, a user-defined one, which Ballot has none of.
     */
    @Test
    void functionNamesAreCaseSensitiveWhenQuotedAndQualifiedOnlyBySystem() {
        db.execute("INSERT INTO n (k, i) VALUES (1, -2)", options());
        assertThat(row("SELECT \"abs\"(i) AS a, ABS(i) AS b, system.abs(i) AS c, \"system\".\"abs\"(i) AS d FROM n WHERE k = 1")).containsExactly(2, 2, 2, 2);
        assertThat(columns("SELECT \"abs\"(i), system.abs(i) FROM n WHERE k = 1")).containsExactly("system.abs(i) int", "system.abs(i) int");
        assertRefused("SELECT \"ABS\"(i) FROM n WHERE k = 1", ErrorCode.INVALID, "Unknown function 'ABS'");
        assertRefused("SELECT ks.abs(i) FROM n WHERE k = 1", ErrorCode.INVALID, "Unknown function 'ks.abs'");
        assertRefused("SELECT ks.count(i) FROM n WHERE k = 1", ErrorCode.INVALID, "Unknown function 'ks.count'");
        assertRefused("SELECT ks.token(k) FROM n WHERE k = 1", ErrorCode.INVALID, "Unknown function 'ks.token'");
        assertRefused("SELECT system.writetime(i) FROM n WHERE k = 1", ErrorCode.INVALID, "Unknown function 'system.writetime'");
        assertRefused("UPDATE n SET i = \"ABS\"(-1) WHERE k = 1", ErrorCode.INVALID, "Unknown function ABS called");
        assertRefused("UPDATE n SET i = ks.abs(-1) WHERE k = 1", ErrorCode.INVALID, "Unknown function ks.abs called");
        assertRefused("UPDATE n SET i = nosuch(1) WHERE k = 1", ErrorCode.INVALID, "Unknown function nosuch called");
        assertRefused("UPDATE n SET i = abs(ks.abs(-1)) WHERE k = 1", ErrorCode.INVALID, "Unknown function ks.abs called");
        db.execute("UPDATE n SET i = system.abs(-3) WHERE k = 2", options());
        assertThat(row("SELECT i FROM n WHERE k = 2")).containsExactly(3);
        db.execute("UPDATE n SET i = \"system\".\"abs\"(-4) WHERE k = 3", options());
        assertThat(row("SELECT i FROM n WHERE k = 3")).containsExactly(4);
    }

    /** dateOf and unixTimestampOf are gone from 5.0; a snake_case name is listed by itself in a refusal. */
    @Test
    void timeFunctionsAreCassandra50s() {
        assertRefused("SELECT dateOf(now()) FROM n", ErrorCode.INVALID, "Unknown function 'dateof'");
        assertRefused("SELECT unixTimestampOf(now()) FROM n", ErrorCode.INVALID, "Unknown function 'unixtimestampof'");
        assertRefused("SELECT to_timestamp(i) FROM n", ErrorCode.INVALID,
                "Invalid call to function to_timestamp, none of its type signatures match (known type signatures: system.to_timestamp : "
                + "(timeuuid) -> timestamp, system.to_timestamp : (date) -> timestamp)");
    }

    /** to_json is named by its 5.0 name however it is called; from_json has no place in a selection. */
    @Test
    void jsonFunctionsInSelectionsAsCassandraNamesAndRefusesThem() {
        db.execute("INSERT INTO n (k, i) VALUES (1, 2)", options());
        assertThat(columns("SELECT toJson(i), tojson(i), to_json(i) FROM n WHERE k = 1"))
                .containsExactly("system.to_json(i) text", "system.to_json(i) text", "system.to_json(i) text");
        assertRefused("SELECT to_json(i, i) FROM n", ErrorCode.INVALID, "Invalid number of arguments for function system.to_json(any)");
        assertRefused("SELECT fromJson('1') FROM n", ErrorCode.INVALID, "fromjson() cannot be used in the selection clause of a SELECT statement");
        assertRefused("SELECT from_json('1') FROM n", ErrorCode.INVALID, "from_json() cannot be used in the selection clause of a SELECT statement");
    }

    @Test
    void similarityFunctionsScoreFloatVectorsAsCassandra() {
        db.execute("INSERT INTO coll (k, v) VALUES (1, [1.0, 2.0])");
        db.execute("INSERT INTO coll (k, v) VALUES (2, [0.0, 0.0])");
        db.execute("INSERT INTO coll (k) VALUES (3)");

        assertThat(columns("SELECT similarity_cosine(v, [1.0, 1.0]), similarity_euclidean([1, 1], v), system.similarity_dot_product(v, v) "
                + "FROM coll WHERE k = 1")).containsExactly("system.similarity_cosine(v, [1.0, 1.0]) float",
                "system.similarity_euclidean([1, 1], v) float", "system.similarity_dot_product(v, v) float");
        assertThat(row("SELECT similarity_cosine(v, [1.0, 1.0]), similarity_euclidean(v, [1.0, 1.0]), similarity_dot_product(v, [1.0, 1.0]) "
                + "FROM coll WHERE k = 1")).as("(1 + cos) / 2, 1 / (1 + d²), (1 + a·b) / 2").containsExactly(0.97434163f, 0.5f, 2.0f);
        assertThat(row("SELECT similarity_cosine([1.0, 2.0, 3.0], [1.0, 1.0, 1.0]), similarity_dot_product(?, [3.0, 4.0]) FROM coll WHERE k = 1",
                (Object) null)).as("two literals; a null marker").containsExactly(0.96291006f, null);
        assertThat(row("SELECT similarity_euclidean(v, [1.0, 1.0]), similarity_dot_product(v, [1.0, 1.0]) FROM coll WHERE k = 2"))
                .containsExactly(0.33333334f, 0.5f);
        assertThat(row("SELECT similarity_cosine(v, [1.0, 1.0]), similarity_cosine(v, null) FROM coll WHERE k = 3")).containsExactly(null, null);
    }

    @Test
    void aSimilarityFunctionRefusesWhatCassandraRefuses() {
        db.execute("INSERT INTO coll (k, v) VALUES (2, [0.0, 0.0])");
        assertRefused("SELECT similarity_cosine(v, [1.0, 1.0]) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "Function system.similarity_cosine doesn't support all-zero vectors.");
        assertRefused("SELECT similarity_cosine(v, [1.0, 1.0, 1.0]) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "All arguments must have the same vector dimensions");
        assertRefused("SELECT similarity_euclidean(l, v) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "Function system.similarity_euclidean requires a float vector argument, but found argument l of type list<int>");
        assertRefused("SELECT similarity_cosine((vector<double, 2>)[1, 1], v) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "Function system.similarity_cosine requires a float vector argument, but found argument (vector<double, 2>)[1, 1] of type vector<double, 2>");
        assertRefused("SELECT similarity_cosine(v) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "Invalid number of arguments for function system.similarity_cosine(vector<float, n>, vector<float, n>)");
        assertRefused("SELECT similarity_cosine(?, ?) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "Cannot infer type of argument ? in call to function system.similarity_cosine(vector<float, n>, vector<float, n>): use type casts to disambiguate");
        assertRefused("SELECT similarity_dot_product(['a', 'b'], v) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "Type error: ['a', 'b'] cannot be passed as argument 0 of function system.similarity_dot_product of type vector<float, 2>");
        assertRefused("SELECT similarity_dot_product([], []) FROM coll WHERE k = 2", ErrorCode.INVALID,
                "vectors may only have positive dimensions; given 0");
    }
}

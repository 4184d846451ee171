package ballot.cql.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.error.CqlException;
import ballot.cql.parse.Parser;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a client's text and values can do to the CQL lexer and parser, the type-string parser and the type codecs: a
 * result, or a {@link CqlException} (SYNTAX_ERROR, INVALID, ...) that the client gets as an error; never another
 * exception, which would be a SERVER_ERROR. Run as unit tests over the corpus in {@code CqlFuzzTestInputs}; fuzzed by
 * {@code tests/run-fuzz.sh}.
 */
class CqlFuzzTest {
    private static final UserType POINT = CqlTypes.userType("ks", "point", List.of("x", "y"), List.of(CqlTypes.INT, CqlTypes.TEXT), true);
    private static final UserTypeResolver RESOLVER = new UserTypeResolver() {
        @Override
        public UserType resolve(String keyspace, String name) {
            return name.equals("point") ? POINT : null;
        }

        @Override
        public String currentKeyspace() {
            return "ks";
        }
    };
    /** Types whose codecs the values fuzzer drives: every kind, nested. */
    private static final String[] TYPES = {"ascii", "bigint", "blob", "boolean", "counter", "date", "decimal", "double",
        "duration", "float", "inet", "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint", "uuid",
        "varint", "vector<float, 3>", "list<int>", "set<text>", "map<text, bigint>", "frozen<list<frozen<map<int, text>>>>",
        "tuple<int, text, frozen<set<uuid>>>", "frozen<point>", "map<frozen<point>, frozen<list<duration>>>",
        "vector<text, 2>"};

    @FuzzTest(maxDuration = "12s")
    void parserAnswersAnyTextWithAStatementOrACqlError(String cql) {
        if (cql == null) return; // Jazzer's empty input; the protocol reads no null query
        try {
            assertThat(Parser.parse(cql)).isNotNull();
        } catch (CqlException expected) {
            // SYNTAX_ERROR or INVALID
        }
    }

    @FuzzTest(maxDuration = "12s")
    void typeStringsParseOrAreCqlErrors(String type) {
        if (type == null) return;
        try {
            assertThat(CqlTypes.parse(type, RESOLVER)).isNotNull();
        } catch (CqlException expected) {
            // INVALID or SYNTAX_ERROR
        }
    }

    @FuzzTest(maxDuration = "12s")
    void valuesValidateOrAreCqlErrorsAndValidOnesRender(FuzzedDataProvider data) {
        CqlType type = CqlTypes.parse(data.pickValue(TYPES), RESOLVER);
        ByteBuffer value = ByteBuffer.wrap(data.consumeRemainingAsBytes());
        try {
            type.validate(value.duplicate());
        } catch (CqlException invalid) {
            return; // the client's bound value is refused with INVALID
        }
        type.compose(value.duplicate());
        assertThat(type.toCqlLiteral(value.duplicate())).isNotNull();
        assertThat(type.toJson(value.duplicate())).isNotNull();
    }
}

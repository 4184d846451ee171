package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** {@link CqlTypes#parse} against the names Cassandra 5.0.9 gives the same strings ({@code asCQL3Type().toString()}). */
class TypeStringTest {
    private static final Map<String, UserType> TYPES = Map.of(
            "Addr", CqlTypes.userType("ks", "Addr", List.of("street", "Zip"), List.of(CqlTypes.TEXT, CqlTypes.INT), false),
            "point", CqlTypes.userType("ks", "point", List.of("x", "y"), List.of(CqlTypes.INT, CqlTypes.INT), true),
            "select", CqlTypes.userType("ks", "select", List.of("x"), List.of(CqlTypes.INT), false));
    private static final UserTypeResolver RESOLVER = new UserTypeResolver() {
        @Override
        public UserType resolve(String keyspace, String name) {
            return keyspace == null || keyspace.equals("ks") ? TYPES.get(name) : null;
        }

        @Override
        public String currentKeyspace() {
            return "ks";
        }
    };

    private static CqlType parse(String s) {
        return CqlTypes.parse(s, RESOLVER);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "int                                   | int",
            "INT                                   | int",
            "varchar                               | text",
            "' frozen < list < int > > '           | frozen<list<int>>",
            "Frozen<List<Int>>                     | frozen<list<int>>",
            "frozen<map<text, int>>                | frozen<map<text, int>>",
            "list<frozen<tuple<int, text>>>        | list<frozen<tuple<int, text>>>",
            "tuple<int,text>                       | frozen<tuple<int, text>>",
            "frozen<tuple<int, list<int>>>         | frozen<tuple<int, frozen<list<int>>>>",
            "tuple<tuple<int>>                     | frozen<tuple<frozen<tuple<int>>>>",
            "map<text, frozen<list<int>>>          | map<text, frozen<list<int>>>",
            "frozen<list<list<int>>>               | frozen<list<frozen<list<int>>>>",
            "set<frozen<map<int,text>>>            | set<frozen<map<int, text>>>",
            "\"Addr\"                              | \"Addr\"",
            "frozen<\"Addr\">                      | frozen<\"Addr\">",
            "point                                 | point",
            "ks.point                              | point",
            "frozen<point>                         | frozen<point>",
            "list<frozen<point>>                   | list<frozen<point>>",
            "frozen<set<point>>                    | frozen<set<frozen<point>>>",
            "\"select\"                            | \"select\"",
            "vector<float, 3>                      | vector<float, 3>",
            "vector<frozen<list<int>>,2>           | vector<frozen<list<int>>, 2>",
            "vector<point, 2>                      | vector<point, 2>",
            "vector<counter, 3>                    | vector<counter, 3>",
            "frozen<vector<float,2>>               | vector<float, 2>",
            "list<duration>                        | list<duration>",
            "map<int, duration>                    | map<int, duration>",
            "tuple<duration>                       | frozen<tuple<duration>>",
            "'timestamp '                          | timestamp"})
    void parsesAndNamesTypesAsCassandraDoes(String typeString, String cqlName) {
        CqlType type = parse(typeString);
        assertThat(type.cqlName()).isEqualTo(cqlName);
        assertThat(parse(type.cqlName())).isEqualTo(type);
    }

    @Test
    void freezingFollowsTheWords() {
        assertThat(parse("point").isMultiCell()).isTrue();
        assertThat(parse("frozen<point>").isMultiCell()).isFalse();
        assertThat(parse("list<int>").isMultiCell()).isTrue();
        assertThat(((ListType) parse("frozen<list<list<int>>>")).elements().isMultiCell()).isFalse();
        assertThat(parse("tuple<int>").isMultiCell()).isFalse();
        assertThat(parse("\"Addr\"")).isInstanceOf(UserType.class);
        assertThat(((UserType) parse("\"Addr\"")).fieldNames()).containsExactly("street", "Zip");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "list<list<int>>          | Non-frozen collections are not allowed inside collections: list<list<int>>",
            "list<point>              | Non-frozen UDTs are not allowed inside collections: list<point>",
            "map<frozen<point>, \"Addr\"> | Non-frozen UDTs are not allowed inside collections: map<frozen<point>, Addr>",
            "set<duration>            | Durations are not allowed inside sets: set<duration>",
            "map<duration,int>        | Durations are not allowed as map keys: map<duration, int>",
            "list<counter>            | Counters are not allowed inside collections: list<counter>",
            "tuple<counter>           | Counters are not allowed inside tuples",
            "frozen<int>              | frozen<> is only allowed on collections, tuples, and user-defined types (got int)",
            "unknowntype              | Unknown type ks.unknowntype",
            "other.point              | Unknown type other.point",
            "vector<float, 0>         | vectors may only have positive dimensions; given 0"})
    void rejectsDisallowedTypesInCassandrasWords(String typeString, String message) {
        assertThatThrownBy(() -> parse(typeString)).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"map<int>", "list<int", "list<>", "vector<float>", "vector<float, x>", "int>",
            "tuple<>", "\"unterminated"})
    void rejectsMalformedStringsAsSyntaxErrors(String typeString) {
        assertThatThrownBy(() -> parse(typeString)).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("Failed parsing CQL type: [" + typeString + "]");
    }

    @Test
    void quotedCustomTypesAreCassandrasOwnClassesOnly() {
        assertThat(parse("'org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal.Int32Type)'").cqlName())
                .isEqualTo("list<int>");
        assertThatThrownBy(() -> parse("'org.apache.cassandra.db.marshal.Int32Type")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("'com.example.MyType'")).isInstanceOf(SyntaxException.class)
                .hasMessage("Error setting type com.example.MyType: Unable to find abstract-type class 'com.example.MyType'");
        assertThatThrownBy(() -> parse("'EmptyType'")).isInstanceOf(SyntaxException.class)
                .hasMessage("Error setting type EmptyType: Ballot does not support the type class org.apache.cassandra.db.marshal.EmptyType");
    }

    @Test
    void classesThatAreNotCqlTypesStayCustomAndQuoted() {
        CqlType lexical = parse("'org.apache.cassandra.db.marshal.LexicalUUIDType'");
        assertThat(lexical.kind()).isEqualTo(CqlType.Kind.CUSTOM);
        assertThat(lexical.cqlName()).isEqualTo("'org.apache.cassandra.db.marshal.LexicalUUIDType'");
        assertThat(parse("'LexicalUUIDType'")).isEqualTo(lexical);
        assertThat(parse("frozen<'LexicalUUIDType'>")).isEqualTo(lexical);
        assertThat(parse("'org.apache.cassandra.db.marshal.ReversedType(org.apache.cassandra.db.marshal.LexicalUUIDType)'"))
                .isEqualTo(lexical);
        assertThat(parse("list<'LexicalUUIDType'>").cqlName()).isEqualTo("list<'org.apache.cassandra.db.marshal.LexicalUUIDType'>");
        assertThat(parse("'CompositeType(Int32Type, UTF8Type)'").cqlName()).isEqualTo("'org.apache.cassandra.db.marshal.CompositeType("
                + "org.apache.cassandra.db.marshal.Int32Type,org.apache.cassandra.db.marshal.UTF8Type)'");
        assertThat(parse("'DynamicCompositeType(s=>UTF8Type,b=>BytesType)'").cqlName()).isEqualTo(
                "'org.apache.cassandra.db.marshal.DynamicCompositeType(b=>org.apache.cassandra.db.marshal.BytesType,"
                        + "s=>org.apache.cassandra.db.marshal.UTF8Type)'");
        assertThat(parse(parse("'DynamicCompositeType(s=>UTF8Type)'").cqlName())).isEqualTo(parse("'DynamicCompositeType(s=>UTF8Type)'"));
    }

    @Test
    void classesThatAreCqlTypesBecomeThoseTypes() {
        assertThat(parse("'org.apache.cassandra.db.marshal.Int32Type'")).isSameAs(CqlTypes.INT);
        assertThat(parse("'UTF8Type'")).isSameAs(CqlTypes.TEXT);
        assertThat(parse("'org.apache.cassandra.db.marshal.ReversedType(org.apache.cassandra.db.marshal.LongType)'"))
                .isSameAs(CqlTypes.BIGINT);
    }

    @Test
    void withoutResolverOnlyBuiltInsParse() {
        assertThat(CqlTypes.parse("map<text, frozen<set<uuid>>>", UserTypeResolver.NONE).cqlName())
                .isEqualTo("map<text, frozen<set<uuid>>>");
        assertThatThrownBy(() -> CqlTypes.parse("point", UserTypeResolver.NONE)).hasMessage("Unknown type point");
    }

    @Test
    void udtNamesAreQuotedOnlyWhenNeeded() {
        assertThat(CqlTypes.userType("ks", "a_b1", List.of("x"), List.of(CqlTypes.INT), true).cqlName())
                .isEqualTo("frozen<a_b1>");
        assertThat(CqlTypes.userType("ks", "Q\"x", List.of("x"), List.of(CqlTypes.INT), false).cqlName())
                .isEqualTo("\"Q\"\"x\"");
        assertThat(parse("\"Addr\"").cqlName()).isEqualTo("\"Addr\"");
    }
}

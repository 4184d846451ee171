package ballot.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.type.ConstantKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParserTest {
    private static Statement parse(String cql) {
        return Parser.parse(cql).statement();
    }

    @Test
    void parsesSelectWithEveryClause() {
        Statement.Select s = (Statement.Select) parse(
                "SELECT DISTINCT k, writetime(v) AS wt, count(*) FROM ks.t WHERE k IN (1, 2) AND c >= 3 AND (c, d) < (4, 'x') "
                        + "GROUP BY k ORDER BY c DESC PER PARTITION LIMIT 2 LIMIT 10 ALLOW FILTERING;");
        assertThat(s.distinct()).isTrue();
        assertThat(s.table()).isEqualTo(new QualifiedName("ks", "t"));
        assertThat(s.selectors()).containsExactly(
                new Selector.Aliased(new Selector.Column("k"), null),
                new Selector.Aliased(new Selector.Function(null, "writetime", List.of(new Selector.Column("v"))), "wt"),
                new Selector.Aliased(new Selector.CountRows(), null));
        assertThat(s.where()).containsExactly(
                new Relation.Single("k", null, Operator.IN, new Term.ListLiteral(List.of(integer("1"), integer("2")))),
                new Relation.Single("c", null, Operator.GTE, integer("3")),
                new Relation.Multi(List.of("c", "d"), Operator.LT,
                        new Term.TupleLiteral(List.of(integer("4"), new Term.Constant(ConstantKind.STRING, "x")))));
        assertThat(s.groupBy()).containsExactly("k");
        assertThat(s.orderBy()).containsExactly(new Statement.Ordering("c", true));
        assertThat(s.perPartitionLimit()).isEqualTo(integer("2"));
        assertThat(s.limit()).isEqualTo(integer("10"));
        assertThat(s.allowFiltering()).isTrue();
    }

    @Test
    void jsonAndDistinctAreColumnNamesWhenFollowedByFrom() {
        Statement.Select s = (Statement.Select) parse("select json from t");
        assertThat(s.json()).isFalse();
        assertThat(s.selectors()).containsExactly(new Selector.Aliased(new Selector.Column("json"), null));
        Statement.Select j = (Statement.Select) parse("select json * from t");
        assertThat(j.json()).isTrue();
        assertThat(j.selectsAll()).isTrue();
    }

    @Test
    void unquotedNamesAreLowerCasedAndQuotedNamesKeepTheirCase() {
        Statement.Select s = (Statement.Select) parse("SELECT \"MixedCase\", Other FROM \"Ks\".Tab");
        assertThat(s.selectors()).extracting(a -> ((Selector.Column) a.selector()).name()).containsExactly("MixedCase", "other");
        assertThat(s.table()).isEqualTo(new QualifiedName("Ks", "tab"));
    }

    @Test
    void numbersBindMarkersInOrderOfAppearance() {
        Parser.Parsed parsed = Parser.parse("UPDATE t USING TTL ? SET a = ?, b = :named WHERE k = ? IF c = ?");
        assertThat(parsed.markerCount()).isEqualTo(5);
        Statement.Update u = (Statement.Update) parsed.statement();
        assertThat(u.attributes().ttl()).isEqualTo(new Term.BindMarker(0, null));
        assertThat(u.assignments()).containsExactly(
                new Assignment.SetValue("a", new Term.BindMarker(1, null)),
                new Assignment.SetValue("b", new Term.BindMarker(2, "named")));
        assertThat(u.conditions()).containsExactly(new Condition("c", null, null, Operator.EQ, new Term.BindMarker(4, null)));
    }

    @Test
    void parsesCollectionOperationsAndCounterUpdates() {
        Statement.Update u = (Statement.Update) parse(
                "UPDATE t SET l = l + [1], l2 = [0] + l2, s = s - {'a'}, m['k'] = 'v', c = c - 1, u.f = 3, n += 2 WHERE k = 0");
        assertThat(u.assignments()).containsExactly(
                new Assignment.Add("l", new Term.ListLiteral(List.of(integer("1")))),
                new Assignment.Prepend("l2", new Term.ListLiteral(List.of(integer("0")))),
                new Assignment.Subtract("s", new Term.SetLiteral(List.of(string("a")))),
                new Assignment.SetElement("m", string("k"), string("v")),
                new Assignment.Subtract("c", integer("1")),
                new Assignment.SetField("u", "f", integer("3")),
                new Assignment.Add("n", integer("2")));
    }

    @Test
    void negativeNumbersFoldIntoConstantsButMinusAfterAColumnIsSubtraction() {
        Statement.Insert i = (Statement.Insert) parse("INSERT INTO t (k, v, d) VALUES (-1, -2.5e3, -NaN)");
        assertThat(i.values()).containsExactly(integer("-1"), new Term.Constant(ConstantKind.FLOAT, "-2.5e3"),
                new Term.Constant(ConstantKind.FLOAT, "-NaN"));
        Statement.Update u = (Statement.Update) parse("UPDATE t SET c = c-1 WHERE k = 1");
        assertThat(u.assignments()).containsExactly(new Assignment.Subtract("c", integer("1")));
    }

    @Test
    void parsesLiteralsOfEveryKind() {
        Statement.Insert i = (Statement.Insert) parse("INSERT INTO t (a,b,c,d,e,f,g,h,i,j) VALUES ("
                + "'it''s', 0xCAFE, 123e4567-e89b-12d3-a456-426614174000, 1h30m, true, {1: 'a'}, {'x', 'y'}, {street: 'x', n: 1}, (1, 'a'), {})"
                + " IF NOT EXISTS USING TTL 86400 AND TIMESTAMP 1234");
        assertThat(i.values()).containsExactly(
                string("it's"),
                new Term.Constant(ConstantKind.HEX, "0xCAFE"),
                new Term.Constant(ConstantKind.UUID, "123e4567-e89b-12d3-a456-426614174000"),
                new Term.Constant(ConstantKind.DURATION, "1h30m"),
                new Term.Constant(ConstantKind.BOOLEAN, "true"),
                new Term.MapLiteral(List.of(integer("1")), List.of(string("a"))),
                new Term.SetLiteral(List.of(string("x"), string("y"))),
                new Term.UdtLiteral(List.of("street", "n"), List.of(string("x"), integer("1"))),
                new Term.TupleLiteral(List.of(integer("1"), string("a"))),
                new Term.MapLiteral(List.of(), List.of()));
        assertThat(i.ifNotExists()).isTrue();
        assertThat(i.attributes()).isEqualTo(new Statement.Attributes(integer("86400"), integer("1234")));
    }

    @Test
    void parsesTypeHintsAndFunctionCalls() {
        Statement.Insert i = (Statement.Insert) parse("INSERT INTO t (k, v, w) VALUES ((int) ?, now(), toTimestamp(now()))");
        assertThat(i.values()).containsExactly(
                new Term.TypeHint("int", new Term.BindMarker(0, null)),
                new Term.FunctionCall(null, "now", List.of()),
                new Term.FunctionCall(null, "totimestamp", List.of(new Term.FunctionCall(null, "now", List.of()))));
    }

    @Test
    void parsesCreateTableWithCompositeKeyAndOptions() {
        Statement.CreateTable c = (Statement.CreateTable) parse("CREATE TABLE IF NOT EXISTS ks.t ("
                + "a int, b text, c timeuuid, d frozen<map<text, list<int>>>, s int static, "
                + "PRIMARY KEY ((a, b), c)) WITH CLUSTERING ORDER BY (c DESC) AND default_time_to_live = 60 "
                + "AND compaction = {'class': 'LeveledCompactionStrategy'} AND comment = 'hi'");
        assertThat(c.ifNotExists()).isTrue();
        assertThat(c.partitionKey()).containsExactly("a", "b");
        assertThat(c.clustering()).containsExactly("c");
        assertThat(c.columns()).contains(new Statement.ColumnDefinition("d", "frozen<map<text, list<int>>>", false),
                new Statement.ColumnDefinition("s", "int", true));
        assertThat(c.properties().clusteringOrder()).containsExactly(new Properties.Ordering("c", true));
        assertThat(c.properties().values()).containsEntry("default_time_to_live", "60")
                .containsEntry("compaction", Map.of("class", "LeveledCompactionStrategy"))
                .containsEntry("comment", "hi");
    }

    @Test
    void parsesInlinePrimaryKeyAndKeywordsUsableAsNames() {
        Statement.CreateTable c = (Statement.CreateTable) parse("CREATE TABLE t (key text PRIMARY KEY, value blob, type int, ttl int)");
        assertThat(c.partitionKey()).containsExactly("key");
        assertThat(c.columns()).extracting(Statement.ColumnDefinition::name).containsExactly("key", "value", "type", "ttl");
    }

    @Test
    void parsesBatchOfModifications() {
        Statement.Batch b = (Statement.Batch) parse("BEGIN UNLOGGED BATCH USING TIMESTAMP 5 "
                + "INSERT INTO t (k) VALUES (1); UPDATE t SET v = 2 WHERE k = 1; DELETE v FROM t WHERE k = 1 APPLY BATCH");
        assertThat(b.type()).isEqualTo(Statement.BatchType.UNLOGGED);
        assertThat(b.attributes().timestamp()).isEqualTo(integer("5"));
        assertThat(b.statements()).hasSize(3);
    }

    @Test
    void parsesDeleteTargetsAndConditions() {
        Statement.Delete d = (Statement.Delete) parse("DELETE m['a'], u.f, v FROM t USING TIMESTAMP 9 WHERE k = 1 IF v != null AND l IN (1, 2)");
        assertThat(d.targets()).containsExactly(
                new Statement.DeleteTarget("m", string("a"), null),
                new Statement.DeleteTarget("u", null, "f"),
                new Statement.DeleteTarget("v", null, null));
        assertThat(d.conditions()).containsExactly(
                new Condition("v", null, null, Operator.NEQ, new Term.Null()),
                new Condition("l", null, null, Operator.IN, new Term.ListLiteral(List.of(integer("1"), integer("2")))));
    }

    @Test
    void parsesAlterStatements() {
        assertThat(parse("ALTER TABLE t ADD (x int, y text)")).isEqualTo(new Statement.AlterTable(new QualifiedName(null, "t"), false,
                new Statement.AddColumns(List.of(new Statement.ColumnDefinition("x", "int", false),
                        new Statement.ColumnDefinition("y", "text", false)), false)));
        assertThat(parse("ALTER TABLE IF EXISTS t RENAME a TO b AND c TO d")).isEqualTo(new Statement.AlterTable(
                new QualifiedName(null, "t"), true, new Statement.RenameColumns(List.of("a", "c"), List.of("b", "d"), false)));
        assertThat(parse("ALTER TYPE ks.addr ADD zip text")).isEqualTo(new Statement.AlterType(new QualifiedName("ks", "addr"),
                false, new Statement.AddField("zip", "text", false)));
    }

    @Test
    void parsesTokenRelationsAndComments() {
        Statement.Select s = (Statement.Select) parse("SELECT * FROM t -- comment\n WHERE token(a, b) > -9223372036854775808 /* x */");
        assertThat(s.where()).containsExactly(new Relation.TokenRange(List.of("a", "b"), Operator.GT, integer("-9223372036854775808")));
    }

    @Test
    void syntaxErrorNamesPositionFoundTokenAndExpectation() {
        assertThatThrownBy(() -> parse("SELECT * FORM t"))
                .isInstanceOf(SyntaxException.class)
                .hasMessage("line 1:9 mismatched input 'FORM' expecting FROM (SELECT * [FORM]...)");
        assertThatThrownBy(() -> parse("SELECT * FROM t WHERE"))
                .isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:21 mismatched end of input expecting column name");
        assertThatThrownBy(() -> parse("INSERT INTO t (k) VALUES ('abc)"))
                .isInstanceOf(SyntaxException.class)
                .hasMessageContaining("unterminated string literal");
    }

    @Test
    void reservedWordsNeedQuotesAsNames() {
        assertThatThrownBy(() -> parse("CREATE TABLE t (select int PRIMARY KEY)"))
                .isInstanceOf(SyntaxException.class)
                .hasMessageContaining("reserved keyword");
        Statement.CreateTable c = (Statement.CreateTable) parse("CREATE TABLE t (\"select\" int PRIMARY KEY)");
        assertThat(c.partitionKey()).containsExactly("select");
    }

    @Test
    void unsupportedStatementsAreInvalidNotSyntaxErrors() {
        assertThatThrownBy(() -> parse("CREATE MATERIALIZED VIEW v AS SELECT * FROM t"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("CREATE MATERIALIZED is not supported");
    }

    @Test
    void parsesIndexStatements() {
        assertThat(parse("CREATE INDEX ON t (v)")).isEqualTo(new Statement.CreateIndex(new QualifiedName(null, "t"), null,
                List.of(new Statement.IndexedColumn("v", "")), false, null, Properties.NONE, false));
        Statement.CreateIndex custom = (Statement.CreateIndex) parse(
                "CREATE CUSTOM INDEX IF NOT EXISTS ks.i ON ks.t (keys(m)) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false'}");
        assertThat(custom.name()).isEqualTo(new QualifiedName("ks", "i"));
        assertThat(custom.targets()).containsExactly(new Statement.IndexedColumn("m", "keys"));
        assertThat(custom.custom()).isTrue();
        assertThat(custom.ifNotExists()).isTrue();
        assertThat(custom.using()).isEqualTo("sai");
        assertThat(custom.properties().values()).isEqualTo(Map.of("options", Map.of("case_sensitive", "false")));
        assertThat(((Statement.CreateIndex) parse("CREATE INDEX ON t (\"values\")")).targets())
                .containsExactly(new Statement.IndexedColumn("values", ""));
        assertThat(((Statement.CreateIndex) parse("CREATE INDEX ON t (full(f))")).targets())
                .containsExactly(new Statement.IndexedColumn("f", "full"));
        assertThat(parse("DROP INDEX IF EXISTS ks.i")).isEqualTo(new Statement.DropIndex(new QualifiedName("ks", "i"), true));
    }

    @Test
    void parsesDescribeForms() {
        assertThat(parse("DESCRIBE KEYSPACES")).isEqualTo(new Statement.Describe(Statement.DescribeKind.KEYSPACES, null, false, false));
        assertThat(parse("DESC TABLE ks.t")).isEqualTo(new Statement.Describe(Statement.DescribeKind.TABLE, new QualifiedName("ks", "t"), false, false));
        assertThat(parse("DESCRIBE ONLY KEYSPACE ks WITH INTERNALS")).isEqualTo(
                new Statement.Describe(Statement.DescribeKind.KEYSPACE, new QualifiedName("ks", "ks"), true, true));
    }

    private static Term integer(String text) {
        return new Term.Constant(ConstantKind.INTEGER, text);
    }

    private static Term string(String text) {
        return new Term.Constant(ConstantKind.STRING, text);
    }
}

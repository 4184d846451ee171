package ballot.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.access.Permission;
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

    /** Terms, selectors and types nest at most Parser.NESTING_MAX deep: beyond, a syntax error, never a stack overflow. */
    @Test
    void deepNestingIsASyntaxErrorNotAStackOverflow() {
        String deep = "[".repeat(5000) + "1" + "]".repeat(5000);
        assertThatThrownBy(() -> parse("INSERT INTO t (k, v) VALUES (1, " + deep + ")"))
                .isInstanceOf(SyntaxException.class).hasMessageContaining("nesting too deep");
        assertThatThrownBy(() -> parse("SELECT " + "- ".repeat(5000) + "v FROM t"))
                .isInstanceOf(SyntaxException.class).hasMessageContaining("nesting too deep");
        assertThatThrownBy(() -> parse("CREATE TABLE t (k int PRIMARY KEY, v " + "frozen<list<".repeat(2500) + "int" + ">>".repeat(2500) + ")"))
                .isInstanceOf(SyntaxException.class).hasMessageContaining("nesting too deep");
        String fine = "[".repeat(Parser.NESTING_MAX - 1) + "1" + "]".repeat(Parser.NESTING_MAX - 1);
        assertThat(parse("INSERT INTO t (k, v) VALUES (1, " + fine + ")")).isNotNull();
    }

    @Test
    void parsesAnnOrdering() {
        Statement.Select s = (Statement.Select) parse("SELECT k FROM t ORDER BY v ann OF [1.0, 2] ASC LIMIT 3");
        assertThat(s.orderBy()).containsExactly(new Statement.Ordering("v", false,
                new Term.ListLiteral(List.of(new Term.Constant(ConstantKind.FLOAT, "1.0"), integer("2")))));
        assertThat(((Statement.Select) parse("SELECT k FROM t ORDER BY v ANN OF ? DESC LIMIT 3")).orderBy().get(0).descending()).isTrue();
        assertThatThrownBy(() -> parse("SELECT k FROM t ORDER BY v DESC ANN OF [1.0] LIMIT 3")).isInstanceOf(SyntaxException.class);
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
        assertThat(s.orderBy()).containsExactly(new Statement.Ordering("c", true, null));
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

    /**
     * A colon is a token of its own, as in Cassandra's grammar: without spaces, map and UDT entries whose value starts
     * with a letter ({0:false}, {f:true}, a UUID such as fe2b...) are entries, not :name markers (the DataStax driver's
     * QueryBuilder and codecs write literals this way); :name, : name and :"Name" are markers.
     */
    @Test
    void aColonWithoutSpacesSeparatesEntriesAndStillStartsNamedMarkers() {
        Statement.Insert i = (Statement.Insert) parse("INSERT INTO t (a, b, c, d) VALUES ({0:false}, {f1:0,f2:true}, "
                + "{1:fe2b4360-28c6-11e2-81c1-0800200c9a66}, {0: :v})");
        assertThat(i.values()).containsExactly(
                new Term.MapLiteral(List.of(integer("0")), List.of(new Term.Constant(ConstantKind.BOOLEAN, "false"))),
                new Term.UdtLiteral(List.of("f1", "f2"), List.of(integer("0"), new Term.Constant(ConstantKind.BOOLEAN, "true"))),
                new Term.MapLiteral(List.of(integer("1")), List.of(new Term.Constant(ConstantKind.UUID, "fe2b4360-28c6-11e2-81c1-0800200c9a66"))),
                new Term.MapLiteral(List.of(integer("0")), List.of(new Term.BindMarker(0, "v"))));
        Statement.Update u = (Statement.Update) parse("UPDATE t SET a = :Lower, b = : spaced, c = :\"Quoted\" WHERE k = :k");
        assertThat(u.assignments()).containsExactly(
                new Assignment.SetValue("a", new Term.BindMarker(0, "lower")),
                new Assignment.SetValue("b", new Term.BindMarker(1, "spaced")),
                new Assignment.SetValue("c", new Term.BindMarker(2, "Quoted")));
        assertThatThrownBy(() -> parse("UPDATE t SET a = :1 WHERE k = 0")).isInstanceOf(SyntaxException.class);
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

    /** Cassandra 6.0's transaction: LETs, a returning SELECT, IF ... THEN ... END IF, markers in text order. */
    @Test
    void parsesATransaction() {
        Parser.Parsed parsed = Parser.parse("""
                BEGIN TRANSACTION
                  LET src = (SELECT balance FROM accounts WHERE id = ?);
                  LET Dst = (SELECT * FROM ks.accounts WHERE id = ? LIMIT 1);
                  SELECT src.balance, Dst.balance;
                  IF src IS NOT NULL AND Dst.balance IS NULL AND src.balance >= ? THEN
                    UPDATE accounts SET balance -= ? WHERE id = ?;
                    INSERT INTO ledger (id, amount) VALUES (?, ?);
                  END IF
                COMMIT TRANSACTION;;""");
        Statement.Transaction t = (Statement.Transaction) parsed.statement();
        assertThat(parsed.markerCount()).isEqualTo(7);
        assertThat(t.lets()).extracting(Statement.Let::name).as("kept as written").containsExactly("src", "Dst");
        assertThat(t.lets().get(1).select().limit()).isEqualTo(integer("1"));
        assertThat(t.returning()).isEqualTo(new Statement.ReturningReferences(List.of(
                new Statement.RowReference("src", "balance"), new Statement.RowReference("Dst", "balance"))));
        assertThat(t.conditions()).containsExactly(
                new Statement.TxnNullness(new Statement.RowReference("src", null), false),
                new Statement.TxnNullness(new Statement.RowReference("Dst", "balance"), true),
                new Statement.TxnComparison(new Statement.RowReference("src", "balance"), Operator.GTE, new Term.BindMarker(2, null)));
        assertThat(t.updates()).hasSize(2);
        assertThat(((Statement.Update) t.updates().get(0)).assignments().get(0)).isInstanceOf(Assignment.Subtract.class);

        Statement.Transaction plain = (Statement.Transaction) parse(
                "BEGIN TRANSACTION SELECT k FROM t WHERE k = 1; UPDATE t SET v = 1 WHERE k = 1; COMMIT TRANSACTION");
        assertThat(plain.returning()).isInstanceOf(Statement.ReturningSelect.class);
        assertThat(plain.conditions()).as("no IF").isNull();
    }

    /**
     * In a transaction's update values {@code name.column} is a LET reference (Cassandra 6.0's row data reference), also
     * inside arithmetic and before {@code +}; a condition may put the value first; outside a transaction it stays refused.
     */
    @Test
    void parsesLetReferencesInATransactionsUpdateValues() {
        Statement.Transaction t = (Statement.Transaction) parse("""
                BEGIN TRANSACTION
                  LET car = (SELECT miles, running FROM cars WHERE model = 'pinto');
                  IF 0 < car.miles AND car.running = true THEN
                    UPDATE cars SET miles = car.miles + 30, trips = 1 + car.trips WHERE model = 'pinto';
                    INSERT INTO log (k, miles) VALUES (1, car.miles);
                  END IF
                COMMIT TRANSACTION""");
        Term.LetReference miles = new Term.LetReference("car", "miles");
        assertThat(t.conditions()).containsExactly(
                new Statement.TxnComparison(new Statement.RowReference("car", "miles"), Operator.GT, integer("0")),
                new Statement.TxnComparison(new Statement.RowReference("car", "running"), Operator.EQ, new Term.Constant(ConstantKind.BOOLEAN, "true")));
        Statement.Update update = (Statement.Update) t.updates().get(0);
        assertThat(update.assignments()).containsExactly(
                new Assignment.SetValue("miles", new Term.Arithmetic('+', miles, integer("30"))),
                new Assignment.SetValue("trips", new Term.Arithmetic('+', integer("1"), new Term.LetReference("car", "trips"))));
        assertThat(((Statement.Insert) t.updates().get(1)).values()).containsExactly(integer("1"), miles);

        assertThatThrownBy(() -> parse("UPDATE cars SET miles = car.miles + 30 WHERE model = 'pinto'")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("BEGIN TRANSACTION LET car = (SELECT model FROM cars WHERE model = 'a'); "
                + "UPDATE cars SET miles = 1 WHERE model = car.model; COMMIT TRANSACTION"))
                .as("a reference in a WHERE clause").isInstanceOf(SyntaxException.class);
    }

    @Test
    void refusesMalformedTransactions() {
        assertThatThrownBy(() -> parse("BEGIN TRANSACTION LET a = (SELECT * FROM t WHERE k = 1); IF a.v = 1 THEN "
                + "UPDATE t SET v = 2 WHERE k = 1; COMMIT TRANSACTION")).isInstanceOf(SyntaxException.class).hasMessageContaining("expecting END");
        assertThatThrownBy(() -> parse("BEGIN TRANSACTION UPDATE t SET v = 2 WHERE k = 1 COMMIT TRANSACTION"))
                .as("a semicolon after every statement").isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("BEGIN TRANSACTION SELECT a.v[1]; COMMIT TRANSACTION")).isInstanceOf(SyntaxException.class)
                .hasMessageContaining("not supported");
        assertThatThrownBy(() -> parse("BEGIN TRANSACTION LET select = (SELECT * FROM t WHERE k = 1); COMMIT TRANSACTION"))
                .isInstanceOf(SyntaxException.class);
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
                .hasMessageStartingWith("CREATE MATERIALIZED VIEW is not supported by Ballot yet (supported: CREATE KEYSPACE,");
        assertThatThrownBy(() -> parse("DROP MATERIALIZED VIEW v")).hasMessage("DROP MATERIALIZED VIEW is not supported by Ballot yet");
        assertThatThrownBy(() -> parse("ALTER MATERIALIZED VIEW v WITH comment = 'x'")).hasMessage("ALTER MATERIALIZED VIEW is not supported by Ballot yet");
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

    @Test
    void columnListsOfCreateTableAndCreateTypeMayHaveStrayCommas() {
        Statement.CreateTable c = (Statement.CreateTable) parse("CREATE TABLE t (id int PRIMARY KEY, v int, )");
        assertThat(c.columns()).extracting(Statement.ColumnDefinition::name).containsExactly("id", "v");
        Statement.CreateTable twice = (Statement.CreateTable) parse("CREATE TABLE t (id int,, v int, PRIMARY KEY (id),)");
        assertThat(twice.partitionKey()).containsExactly("id");
        Statement.CreateType type = (Statement.CreateType) parse("CREATE TYPE a (street text, zip int,)");
        assertThat(type.fieldNames()).containsExactly("street", "zip");
        assertThatThrownBy(() -> parse("CREATE TABLE t (, id int PRIMARY KEY)")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("CREATE TABLE t ()")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("ALTER TABLE t ADD (a int,)")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("INSERT INTO t (a, b,) VALUES (1, 2)")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void everyPrimaryKeyIsCountedWhereverItIsDeclared() {
        assertThat(((Statement.CreateTable) parse("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))")).primaryKeys()).isEqualTo(2);
        assertThat(((Statement.CreateTable) parse("CREATE TABLE t (a int, PRIMARY KEY (a), PRIMARY KEY (a))")).primaryKeys()).isEqualTo(2);
        assertThat(((Statement.CreateTable) parse("CREATE TABLE t (a int)")).primaryKeys()).isZero();
    }

    @Test
    void typesMayBeCassandraClassesInQuotes() {
        Statement.CreateTable c = (Statement.CreateTable) parse("CREATE TABLE t (k int PRIMARY KEY, "
                + "c 'org.apache.cassandra.db.marshal.LexicalUUIDType', l list<'LexicalUUIDType'>, f frozen<'Int32Type'>)");
        assertThat(c.columns()).extracting(Statement.ColumnDefinition::type).containsExactly("int",
                "'org.apache.cassandra.db.marshal.LexicalUUIDType'", "list<'LexicalUUIDType'>", "frozen<'Int32Type'>");
    }

    @Test
    void dataMaskingIsReadThenRefusedAsCassandraDoesByDefault() {
        String disabled = "Cannot mask columns because dynamic data masking is not enabled. "
                + "You can enable it with the dynamic_data_masking_enabled property on cassandra.yaml";
        for (String cql : List.of("CREATE TABLE t (k int PRIMARY KEY, v text MASKED WITH mask_inner(1, null))",
                "CREATE TABLE t (k int MASKED WITH DEFAULT PRIMARY KEY)",
                "ALTER TABLE t ADD v int MASKED WITH system.mask_null()",
                "ALTER TABLE t ALTER IF EXISTS v MASKED WITH mask_default()",
                "ALTER TABLE t ALTER v DROP MASKED")) {
            assertThatThrownBy(() -> parse(cql)).as(cql).isInstanceOf(InvalidRequestException.class).hasMessage(disabled);
        }
        assertThatThrownBy(() -> parse("CREATE TABLE t (k int PRIMARY KEY, v text MASKED WITH mask_inner(1, ) )"))
                .isInstanceOf(SyntaxException.class);
    }

    @Test
    void alterTableTakesOnlyPropertiesAfterWithAndCompactStorageOnlyToDropIt() {
        assertThat(parse("ALTER TABLE t DROP COMPACT STORAGE")).isEqualTo(new Statement.AlterTable(new QualifiedName(null, "t"),
                false, new Statement.DropCompactStorage()));
        assertThat(parse("ALTER TABLE t DROP compact")).isEqualTo(new Statement.AlterTable(new QualifiedName(null, "t"),
                false, new Statement.DropColumns(List.of("compact"), false, null)));
        assertThat(parse("ALTER TABLE t DROP (a, b) USING TIMESTAMP 12")).isEqualTo(new Statement.AlterTable(
                new QualifiedName(null, "t"), false, new Statement.DropColumns(List.of("a", "b"), false, integer("12"))));
        assertThatThrownBy(() -> parse("ALTER TABLE t DROP a USING TIMESTAMP ?")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("ALTER TABLE t WITH CLUSTERING ORDER BY (c DESC)")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("ALTER TABLE t WITH COMPACT STORAGE")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void propertyValuesAreConstantsOrUnreservedWords() {
        assertThat(((Statement.AlterTable) parse("ALTER TABLE t WITH comment = 0x01 AND speculative_retry = ttl")).action())
                .isEqualTo(new Statement.SetTableOptions(new Properties(Map.of("comment", "0x01", "speculative_retry", "ttl"), List.of(), false)));
        for (String value : List.of("null", "select", "\"Quoted\"", "?")) {
            assertThatThrownBy(() -> parse("ALTER TABLE t WITH comment = " + value)).as(value).isInstanceOf(SyntaxException.class);
        }
    }

    @Test
    void usingAndLimitTakeIntegersOrMarkersInCassandrasOrder() {
        Statement.Insert i = (Statement.Insert) parse("INSERT INTO t (k) VALUES (1) IF NOT EXISTS USING TTL -1 AND TIMESTAMP :ts");
        assertThat(i.attributes()).isEqualTo(new Statement.Attributes(integer("-1"), new Term.BindMarker(0, "ts")));
        assertThatThrownBy(() -> parse("INSERT INTO t (k) VALUES (1) USING TTL 5 IF NOT EXISTS")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("UPDATE t USING TTL 1 + 1 SET v = 1 WHERE k = 1")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("SELECT * FROM t LIMIT 'a'")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("DELETE FROM t USING TIMESTAMP 1 AND TTL 5 WHERE k = 1"))
                .isInstanceOf(SyntaxException.class).hasMessageContaining("mismatched input 'TTL' expecting TIMESTAMP");
        Statement.Select s = (Statement.Select) parse("SELECT * FROM t PER PARTITION LIMIT ? LIMIT 3");
        assertThat(s.perPartitionLimit()).isEqualTo(new Term.BindMarker(0, null));
        assertThat(s.limit()).isEqualTo(integer("3"));
    }

    @Test
    void lexesLiteralsAsCassandrasLexerDoes() {
        Statement.Insert i = (Statement.Insert) parse("INSERT INTO t (a, b, c, d, e, f, g, h) VALUES "
                + "(1., 1E5, -Infinity, TRUE, 0XcaFE, $$it's$$, P1Y2M3DT4H, PT5M)");
        assertThat(i.values()).containsExactly(new Term.Constant(ConstantKind.FLOAT, "1."),
                new Term.Constant(ConstantKind.FLOAT, "1E5"), new Term.Constant(ConstantKind.FLOAT, "-Infinity"),
                new Term.Constant(ConstantKind.BOOLEAN, "true"), new Term.Constant(ConstantKind.HEX, "0XcaFE"),
                string("it's"), new Term.Constant(ConstantKind.DURATION, "P1Y2M3DT4H"),
                new Term.Constant(ConstantKind.DURATION, "PT5M"));
        // ISO 8601 designators are upper case only, and a fraction needs its integer part
        assertThatThrownBy(() -> parse("INSERT INTO t (a) VALUES (p1d)")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("INSERT INTO t (a) VALUES (.5)")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void identifiersAreAsciiAndStartWithALetter() {
        assertThatThrownBy(() -> parse("SELECT _a FROM t")).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:7 no viable alternative at character '_'");
        assertThatThrownBy(() -> parse("SELECT café FROM t")).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:10 no viable alternative at character 'é'");
        assertThat(((Statement.Select) parse("SELECT \"café\", a_1 FROM t")).selectors()).extracting(Selector.Aliased::selector)
                .containsExactly(new Selector.Column("café"), new Selector.Column("a_1"));
    }

    @Test
    void lineCommentsEndAtANewlineOnly() {
        assertThat(parse("SELECT * FROM t // all\r")).isInstanceOf(Statement.Select.class);
        assertThatThrownBy(() -> parse("SELECT * FROM t -- all")).isInstanceOf(SyntaxException.class)
                .hasMessage("line 1:22 mismatched character '<EOF>' expecting set null");
    }

    @Test
    void unreservedKeywordsAreNamesAndBooleansAreNot() {
        Statement.CreateTable c = (Statement.CreateTable) parse("CREATE TABLE t (replace int PRIMARY KEY, unset int, key int, "
                + "ttl int, json int, distinct int, like int, contains int, vector int, masked int, group int)");
        assertThat(c.columns()).hasSize(11);
        assertThatThrownBy(() -> parse("CREATE TABLE t (true int PRIMARY KEY)")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("CREATE TABLE t (nan int PRIMARY KEY)")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void userTypeNamesMayNotBeTypesOrReservedTypeNames() {
        assertThat(parse("CREATE TYPE ks.key (a int)")).isInstanceOf(Statement.CreateType.class);
        assertThatThrownBy(() -> parse("CREATE TYPE int (a int)")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("DROP TYPE ks.ttl")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("CREATE TYPE byte (a int)")).isInstanceOf(SyntaxException.class)
                .hasMessage("Invalid (reserved) user type name byte");
        assertThat(parse("CREATE TYPE \"int\" (a int)")).isInstanceOf(Statement.CreateType.class);
    }

    @Test
    void aTypeIsNoReservedKeywordBooleanOrReservedTypeName() {
        // Cassandra 5.0.9's answers: the syntax error comes before the table's existence or the type's lookup
        assertThatThrownBy(() -> parse("CREATE TABLE t2 (k in PRIMARY KEY)")).isInstanceOf(SyntaxException.class)
                .hasMessage("line 1:19 no viable alternative at input 'in' (CREATE TABLE t2 (k [in]...)");
        assertThatThrownBy(() -> parse("CREATE TABLE t2 (k true PRIMARY KEY)")).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:19 no viable alternative at input 'true'");
        assertThatThrownBy(() -> parse("CREATE TABLE t2 (k list<select> PRIMARY KEY)")).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:24 no viable alternative at input 'select'");
        assertThatThrownBy(() -> parse("ALTER TABLE t ADD v ks.from")).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:23 no viable alternative at input 'from'");
        assertThatThrownBy(() -> parse("CREATE TABLE t2 (k byte PRIMARY KEY)")).isInstanceOf(SyntaxException.class)
                .hasMessage("Invalid (reserved) user type name byte");
        assertThatThrownBy(() -> parse("CREATE TYPE u (a ttl)")).isInstanceOf(SyntaxException.class)
                .hasMessageStartingWith("line 1:20 mismatched input ')' expecting '.'");
        Statement.CreateTable c = (Statement.CreateTable) parse(
                "CREATE TABLE t2 (k int PRIMARY KEY, s set<int>, f frozen<map<text, key>>, u ks.key, b ttl.addr)");
        assertThat(c.columns()).hasSize(5);
    }

    @Test
    void relationsAreCassandra50s() {
        Statement.Select s = (Statement.Select) parse("SELECT * FROM t WHERE m['k'] = 1 AND (a, b) IN ? AND c IN () "
                + "AND s CONTAINS 'x' AND m CONTAINS KEY 'k' AND v IS NOT NULL AND n LIKE 'a%'");
        assertThat(s.where()).extracting(r -> r instanceof Relation.Single single ? single.op() : ((Relation.Multi) r).op())
                .containsExactly(Operator.EQ, Operator.IN, Operator.IN, Operator.CONTAINS, Operator.CONTAINS_KEY,
                        Operator.IS_NOT, Operator.LIKE);
        // NOT IN, NOT CONTAINS and BETWEEN arrived after 5.0; an element of a map is compared, never searched
        for (String cql : List.of("SELECT * FROM t WHERE c NOT IN (1)", "SELECT * FROM t WHERE s NOT CONTAINS 1",
                "SELECT * FROM t WHERE c BETWEEN 1 AND 2", "SELECT * FROM t WHERE m['k'] IN (1)",
                "SELECT * FROM t WHERE m['k'] CONTAINS 1", "SELECT * FROM t WHERE token(k) IN (1)")) {
            assertThatThrownBy(() -> parse(cql)).as(cql).isInstanceOf(SyntaxException.class);
        }
    }

    @Test
    void conditionsTakeContainsOnWholeCollections() {
        Statement.Update u = (Statement.Update) parse("UPDATE t SET v = 1 WHERE k = 1 IF s CONTAINS 'a' AND m CONTAINS KEY ? "
                + "AND m['k'] IN ('a', 'b') AND u.f >= 2");
        assertThat(u.conditions()).containsExactly(new Condition("s", null, null, Operator.CONTAINS, string("a")),
                new Condition("m", null, null, Operator.CONTAINS_KEY, new Term.BindMarker(0, null)),
                new Condition("m", string("k"), null, Operator.IN, new Term.ListLiteral(List.of(string("a"), string("b")))),
                new Condition("u", null, "f", Operator.GTE, integer("2")));
        assertThatThrownBy(() -> parse("DELETE FROM t WHERE k = 1 IF m['k'] CONTAINS 'a'")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void selectorArithmeticHasPrecedenceAndAssociatesLeft() {
        Statement.Select s = (Statement.Select) parse("SELECT a - b - c, a + b * c, -a, - 2, m[1..3], m[..'x'], m['y'..] FROM t");
        Selector a = new Selector.Column("a");
        Selector b = new Selector.Column("b");
        Selector c = new Selector.Column("c");
        Selector m = new Selector.Column("m");
        assertThat(s.selectors()).extracting(Selector.Aliased::selector).containsExactly(
                new Selector.Arithmetic('-', new Selector.Arithmetic('-', a, b), c),
                new Selector.Arithmetic('+', a, new Selector.Arithmetic('*', b, c)),
                new Selector.Negation(a),
                new Selector.Value(integer("-2")),
                new Selector.Element(m, integer("1"), integer("3"), true),
                new Selector.Element(m, null, string("x"), true),
                new Selector.Element(m, string("y"), null, true));
    }

    @Test
    void statementsOfFeaturesBallotLacksAreInvalidRequests() {
        for (String cql : List.of("CREATE OR REPLACE FUNCTION f (a int) CALLED ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;'",
                "CREATE AGGREGATE a (int) SFUNC f STYPE int", "CREATE MATERIALIZED VIEW v AS SELECT * FROM t",
                "CREATE TRIGGER tr ON t USING 'x'", "DROP FUNCTION f", "GRANT EXECUTE ON ALL FUNCTIONS TO r",
                "LIST ALL PERMISSIONS ON ALL MBEANS", "CREATE ROLE r WITH HASHED PASSWORD = 'h'")) {
            assertThatThrownBy(() -> parse(cql)).as(cql).isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("not supported");
        }
        assertThatThrownBy(() -> parse("CREATE OR REPLACE FUNCTION f")).hasMessageStartingWith("CREATE OR REPLACE FUNCTION is not supported");
    }

    /** There are none of these to drop, so IF EXISTS makes the statement a no-op (cleanup scripts, cqlengine). */
    @Test
    void dropIfExistsOfWhatBallotLacksDropsNothing() {
        assertThat(parse("DROP MATERIALIZED VIEW IF EXISTS ks.v")).isEqualTo(new Statement.DropNothing("MATERIALIZED VIEW", new QualifiedName("ks", "v")));
        assertThat(parse("DROP FUNCTION IF EXISTS ks.f(int, frozen<list<text>>)")).isEqualTo(new Statement.DropNothing("FUNCTION", new QualifiedName("ks", "f")));
        assertThat(parse("DROP FUNCTION IF EXISTS f")).isEqualTo(new Statement.DropNothing("FUNCTION", new QualifiedName(null, "f")));
        assertThat(parse("drop aggregate if exists ks.a()")).isEqualTo(new Statement.DropNothing("AGGREGATE", new QualifiedName("ks", "a")));
        assertThat(parse("DROP TRIGGER IF EXISTS tr ON ks.t;")).isEqualTo(new Statement.DropNothing("TRIGGER", new QualifiedName("ks", "t")));
        assertThatThrownBy(() -> parse("DROP MATERIALIZED VIEW ks.v")).hasMessage("DROP MATERIALIZED VIEW is not supported by Ballot yet");
        assertThatThrownBy(() -> parse("DROP TRIGGER IF EXISTS tr")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void parsesRoleStatementsAsCassandra() {
        assertThat(parse("CREATE ROLE IF NOT EXISTS Alice WITH PASSWORD = 'p' AND LOGIN = true AND SUPERUSER = false"))
                .isEqualTo(new Statement.CreateRole("alice", true, new RoleOptions("p", true, false), false));
        assertThat(parse("CREATE ROLE 'Bob'")).isEqualTo(new Statement.CreateRole("Bob", false, RoleOptions.NONE, false));
        assertThat(parse("CREATE USER u WITH PASSWORD 'p' SUPERUSER"))
                .isEqualTo(new Statement.CreateRole("u", false, new RoleOptions("p", null, true), true));
        assertThat(parse("ALTER USER u NOSUPERUSER")).isEqualTo(new Statement.AlterRole("u", new RoleOptions(null, null, false), true));
        assertThat(parse("ALTER ROLE \"R\" WITH LOGIN = false"))
                .isEqualTo(new Statement.AlterRole("R", new RoleOptions(null, false, null), false));
        assertThat(parse("DROP USER IF EXISTS u")).isEqualTo(new Statement.DropRole("u", true, true));
        assertThat(parse("DROP ROLE r")).isEqualTo(new Statement.DropRole("r", false, false));
        assertThat(parse("LIST ROLES OF r NORECURSIVE")).isEqualTo(new Statement.ListRoles("r", false, false));
        assertThat(parse("LIST ROLES")).isEqualTo(new Statement.ListRoles(null, true, false));
        assertThat(parse("LIST USERS")).isEqualTo(new Statement.ListRoles(null, true, true));
        assertThat(parse("GRANT admins TO 'Alice'")).isEqualTo(new Statement.GrantRole("admins", "Alice", false));
        assertThat(parse("REVOKE admins FROM alice")).isEqualTo(new Statement.GrantRole("admins", "alice", true));
        assertThatThrownBy(() -> parse("CREATE ROLE r WITH LOGIN = true AND LOGIN = false")).isInstanceOf(SyntaxException.class)
                .hasMessage("Multiple definition for property LOGIN");
        assertThatThrownBy(() -> parse("CREATE ROLE r WITH LOGIN = 'yes'")).isInstanceOf(SyntaxException.class);
        assertThatThrownBy(() -> parse("ALTER ROLE r")).isInstanceOf(SyntaxException.class);
    }

    @Test
    void parsesPermissionStatementsAsCassandra() {
        Statement.ResourceName all = new Statement.ResourceName.AllKeyspaces();
        Statement.ResourceName ks = new Statement.ResourceName.Keyspace("ks");
        Statement.ResourceName t = new Statement.ResourceName.Table(new QualifiedName(null, "t"));
        Statement.ResourceName ksT = new Statement.ResourceName.Table(new QualifiedName("ks", "t"));
        assertThat(parse("GRANT ALL PERMISSIONS ON ALL KEYSPACES TO r")).isEqualTo(new Statement.GrantPermission(null, all, "r", false));
        assertThat(parse("GRANT all ON KEYSPACE ks TO 'R'")).isEqualTo(new Statement.GrantPermission(null, ks, "R", false));
        assertThat(parse("GRANT select ON t TO r")).isEqualTo(new Statement.GrantPermission(Permission.SELECT, t, "r", false));
        assertThat(parse("REVOKE MODIFY PERMISSION ON TABLE ks.t FROM r"))
                .isEqualTo(new Statement.GrantPermission(Permission.MODIFY, ksT, "r", true));
        assertThat(parse("GRANT CREATE ON KEYSPACE ks TO r")).isEqualTo(new Statement.GrantPermission(Permission.CREATE, ks, "r", false));
        assertThat(parse("GRANT DESCRIBE ON ALL ROLES TO r"))
                .isEqualTo(new Statement.GrantPermission(Permission.DESCRIBE, new Statement.ResourceName.AllRoles(), "r", false));
        assertThat(parse("REVOKE ALTER ON ROLE 'Bob' FROM r"))
                .isEqualTo(new Statement.GrantPermission(Permission.ALTER, new Statement.ResourceName.Role("Bob"), "r", true));
        assertThat(parse("LIST ALL")).isEqualTo(new Statement.ListPermissions(null, null, null, true));
        assertThat(parse("LIST ALL PERMISSIONS OF r")).isEqualTo(new Statement.ListPermissions(null, null, "r", true));
        assertThat(parse("LIST SELECT ON ks.t OF r NORECURSIVE")).isEqualTo(new Statement.ListPermissions(Permission.SELECT, ksT, "r", false));
        // GRANT of a role still parses as role membership.
        assertThat(parse("GRANT admins TO r")).isEqualTo(new Statement.GrantRole("admins", "r", false));
    }

    @Test
    void refusesPermissionsThatDoNotApplyOrAreNotBuilt() {
        assertThatThrownBy(() -> parse("GRANT CREATE ON TABLE ks.t TO r")).isInstanceOf(SyntaxException.class)
                .hasMessage("Resource type DataResource does not support any of the requested permissions");
        assertThatThrownBy(() -> parse("GRANT DESCRIBE ON ALL KEYSPACES TO r")).isInstanceOf(SyntaxException.class)
                .hasMessage("Resource type DataResource does not support any of the requested permissions");
        assertThatThrownBy(() -> parse("GRANT EXECUTE ON ALL KEYSPACES TO r")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("EXECUTE permission is not supported by Ballot");
        assertThatThrownBy(() -> parse("GRANT SELECT ON ALL ROLES TO r")).isInstanceOf(SyntaxException.class)
                .hasMessage("Resource type RoleResource does not support any of the requested permissions");
        assertThatThrownBy(() -> parse("GRANT CREATE ON ROLE r TO s")).isInstanceOf(SyntaxException.class)
                .hasMessage("Resource type RoleResource does not support any of the requested permissions");
        assertThatThrownBy(() -> parse("GRANT ALL ON ALL FUNCTIONS TO r")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("Permissions on ALL FUNCTIONS are not supported by Ballot");
        assertThatThrownBy(() -> parse("GRANT READ ON ks.t TO r")).isInstanceOf(SyntaxException.class)
                .hasMessageContaining("expecting a permission (CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE) or ALL");
        assertThatThrownBy(() -> parse("GRANT SELECT ON ks.t r")).isInstanceOf(SyntaxException.class).hasMessageContaining("expecting TO");
    }

    private static Term integer(String text) {
        return new Term.Constant(ConstantKind.INTEGER, text);
    }

    private static Term string(String text) {
        return new Term.Constant(ConstantKind.STRING, text);
    }
}

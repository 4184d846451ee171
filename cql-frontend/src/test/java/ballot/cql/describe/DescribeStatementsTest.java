package ballot.cql.describe;

import static ballot.cql.describe.DescribeFixture.paged;
import static ballot.cql.describe.DescribeFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.ErrorCode;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Rows;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.statement.CqlStatement;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every DESCRIBE form run against {@link DescribeFixture}: columns, rows and their order, errors and paging, as a
 * Cassandra 5.0.9 node answered the same statements (research notes system-tables.md §3.3 and the raw outputs).
 */
class DescribeStatementsTest {
    private final DescribeFixture fixture = new DescribeFixture();

    private static List<String> row(String... values) {
        return List.of(values);
    }

    private List<String> names(Rows rows) {
        List<String> out = new ArrayList<>();
        for (List<String> r : text(rows)) out.add(r.get(0) + "." + r.get(2));
        return out;
    }

    private static List<String> columnNames(Rows rows) {
        return rows.metadata().columns().stream().map(ColumnSpec::name).toList();
    }

    @Test
    void listingColumnsComeFromSystemDescribe() {
        Rows rows = fixture.run("DESCRIBE KEYSPACES", null);
        assertThat(rows.metadata().columns()).containsExactly(
                new ColumnSpec("system", "describe", "keyspace_name", CqlTypes.TEXT),
                new ColumnSpec("system", "describe", "type", CqlTypes.TEXT),
                new ColumnSpec("system", "describe", "name", CqlTypes.TEXT));
    }

    @Test
    void elementColumnsAddCreateStatement() {
        CqlStatement statement = fixture.prepare("DESCRIBE TABLE ks.t", null);
        assertThat(statement.resultMetadata().columns()).extracting(ColumnSpec::name)
                .containsExactly("keyspace_name", "type", "name", "create_statement");
        assertThat(statement.resultMetadata().columns()).allSatisfy(c -> {
            assertThat(c.keyspace()).isEqualTo("system");
            assertThat(c.table()).isEqualTo("describe");
        });
        assertThat(statement.variables()).isEmpty();
    }

    @Test
    void describeKeyspacesListsEveryKeyspaceByNameWhateverTheKeyspaceInUse() {
        List<List<String>> expected = List.of(
                row("ks", "keyspace", "ks"), row("system", "keyspace", "system"), row("system_auth", "keyspace", "system_auth"),
                row("system_distributed", "keyspace", "system_distributed"), row("system_schema", "keyspace", "system_schema"),
                row("system_traces", "keyspace", "system_traces"), row("system_views", "keyspace", "system_views"),
                row("system_virtual_schema", "keyspace", "system_virtual_schema"));
        assertThat(text(fixture.run("DESCRIBE KEYSPACES", null))).isEqualTo(expected);
        assertThat(text(fixture.run("desc keyspaces;", "ks"))).isEqualTo(expected);
    }

    @Test
    void describeTablesWithoutKeyspaceListsAllKeyspacesCaseInsensitivelyWithQuotedNames() {
        assertThat(text(fixture.run("DESCRIBE TABLES", null))).containsExactly(
                row("ks", "table", "cnt"), row("ks", "table", "cpk"), row("ks", "table", "t"), row("ks", "table", "t2"),
                row("ks", "table", "u"),
                row("system", "table", "batches"), row("system", "table", "\"IndexInfo\""), row("system", "table", "local"),
                row("system", "table", "peers"),
                row("system_views", "table", "batch_metrics"), row("system_views", "table", "clients"),
                row("system_views", "table", "rows_per_read"));
    }

    @Test
    void describeTablesInAKeyspaceListsOnlyThatKeyspace() {
        assertThat(text(fixture.run("DESCRIBE COLUMNFAMILIES", "ks"))).containsExactly(
                row("ks", "table", "cnt"), row("ks", "table", "cpk"), row("ks", "table", "t"), row("ks", "table", "t2"),
                row("ks", "table", "u"));
    }

    @Test
    void describeTypesListsUserTypes() {
        assertThat(text(fixture.run("DESCRIBE TYPES", null))).containsExactly(row("ks", "type", "addr"));
        assertThat(text(fixture.run("DESCRIBE TYPES", "system"))).isEmpty();
    }

    @Test
    void describeFunctionsAndAggregatesAreEmptyListings() {
        assertThat(columnNames(fixture.run("DESCRIBE FUNCTIONS", null))).containsExactly("keyspace_name", "type", "name");
        assertThat(fixture.run("DESCRIBE FUNCTIONS", "ks").rows()).isEmpty();
        assertThat(fixture.run("DESCRIBE AGGREGATES", null).rows()).isEmpty();
    }

    @Test
    void listingInAKeyspaceThatNoLongerExistsFails() {
        assertInvalid(() -> fixture.run("DESCRIBE TABLES", "gone"), "'gone' not found in keyspaces");
    }

    @Test
    void describeKeyspaceGivesKeyspaceThenTypesThenTables() {
        Rows rows = fixture.run("DESCRIBE KEYSPACE ks", null);
        assertThat(names(rows)).containsExactly("ks.ks", "ks.addr", "ks.cnt", "ks.cpk", "ks.t", "ks.t2", "ks.u");
        assertThat(text(rows)).extracting(r -> r.get(1)).containsExactly("keyspace", "type", "table", "table", "table", "table", "table");
        assertThat(text(rows).get(0).get(3)).isEqualTo(
                "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': '1'}  AND durable_writes = true;");
        assertThat(text(rows).get(1).get(3)).isEqualTo("CREATE TYPE ks.addr (\n    street text,\n    zip int,\n    city text\n);");
        assertThat(text(rows).get(5).get(3)).isEqualTo(CreateStatementsTest.T2);
    }

    @Test
    void describeKeyspaceWithoutNameUsesTheKeyspaceInUse() {
        assertThat(names(fixture.run("DESCRIBE KEYSPACE", "ks"))).first().isEqualTo("ks.ks");
        assertInvalid(() -> fixture.run("DESCRIBE KEYSPACE", null), "No keyspace specified and no current keyspace");
    }

    @Test
    void describeOnlyKeyspaceGivesOneRow() {
        assertThat(text(fixture.run("DESCRIBE ONLY KEYSPACE system", null))).containsExactly(row("system", "keyspace", "system",
                "CREATE KEYSPACE system WITH replication = {'class': 'LocalStrategy'}  AND durable_writes = true;"));
    }

    @Test
    void describeVirtualKeyspaceWrapsItInAComment() {
        List<List<String>> rows = text(fixture.run("DESCRIBE KEYSPACE system_views", null));
        assertThat(rows.get(0)).containsExactly("system_views", "keyspace", "system_views",
                "/*\nWarning: Keyspace system_views is a virtual keyspace and cannot be recreated with CQL.\n"
                        + "Structure, for reference:\nVIRTUAL KEYSPACE system_views;\n*/");
        assertThat(rows).extracting(r -> r.get(2)).containsExactly("system_views", "batch_metrics", "clients", "rows_per_read");
    }

    @Test
    void typesComeAfterTheTypesTheyUse() {
        KeyspaceMetadata ks = fixture.schema().keyspace("ks");
        var inner = CqlTypes.userType("ks", "z_inner", List.of("x"), List.of(CqlTypes.TEXT), false);
        var outer = CqlTypes.userType("ks", "a_outer", List.of("i"), List.of(CqlTypes.list(inner.freeze(), true)), false);
        fixture.update(keyspaces -> {
            keyspaces.put("ks", ks.withTypes(Map.of("addr", ks.type("addr"), "z_inner", inner, "a_outer", outer), ks.tables()));
            return keyspaces;
        });
        assertThat(names(fixture.run("DESCRIBE KEYSPACE ks", null))).startsWith("ks.ks", "ks.z_inner", "ks.a_outer", "ks.addr");
        assertThat(names(fixture.run("DESCRIBE TYPES", "ks"))).containsExactly("ks.a_outer", "ks.addr", "ks.z_inner");
    }

    @Test
    void describeSchemaSkipsSystemKeyspacesAndFullSchemaDoesNot() {
        assertThat(names(fixture.run("DESCRIBE SCHEMA", null))).containsExactly("ks.ks", "ks.addr", "ks.cnt", "ks.cpk", "ks.t", "ks.t2", "ks.u");
        List<String> full = names(fixture.run("DESCRIBE FULL SCHEMA", null));
        assertThat(full).startsWith("ks.ks", "ks.addr").contains("system.system", "system.\"IndexInfo\"", "system_virtual_schema.system_virtual_schema");
        assertThat(full).hasSize(7 + 5 + 1 + 1 + 1 + 1 + 4 + 1);
    }

    @Test
    void describeTableGivesTheTable() {
        assertThat(text(fixture.run("DESCRIBE TABLE ks.t2", null))).containsExactly(row("ks", "table", "t2", CreateStatementsTest.T2));
        assertThat(text(fixture.run("DESC COLUMNFAMILY t2", "ks"))).containsExactly(row("ks", "table", "t2", CreateStatementsTest.T2));
        assertThat(text(fixture.run("DESCRIBE TABLE system.\"IndexInfo\"", null)).get(0).subList(0, 3))
                .containsExactly("system", "table", "\"IndexInfo\"");
    }

    @Test
    void describeTableWithInternalsShowsIdAndDroppedColumns() {
        assertThat(text(fixture.run("DESCRIBE TABLE ks.t WITH INTERNALS", null)).get(0).get(3)).isEqualTo(CreateStatementsTest.T_WITH_INTERNALS);
    }

    @Test
    void describeTableErrorsAreCassandras() {
        assertInvalid(() -> fixture.run("DESCRIBE TABLE nope", "ks"), "Table 'nope' not found in keyspace 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE TABLE nope", null), "No keyspace specified and no current keyspace");
        assertInvalid(() -> fixture.run("DESCRIBE TABLE nope.t", null), "'nope' not found in keyspaces");
        assertInvalid(() -> fixture.run("DESCRIBE KEYSPACE nope", null), "'nope' not found in keyspaces");
    }

    @Test
    void describeTypeGivesTheTypeOrCassandrasError() {
        assertThat(text(fixture.run("DESCRIBE TYPE addr", "ks"))).containsExactly(
                row("ks", "type", "addr", "CREATE TYPE ks.addr (\n    street text,\n    zip int,\n    city text\n);"));
        assertInvalid(() -> fixture.run("DESCRIBE TYPE ks.nope", null), "User defined type 'nope' not found in 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE TYPE nope", null), "No keyspace specified and no current keyspace");
    }

    @Test
    void elementKindsBallotLacksAreNotFound() {
        assertInvalid(() -> fixture.run("DESCRIBE FUNCTION ks.f", null), "User defined function 'f' not found in 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE AGGREGATE a", "ks"), "User defined aggregate 'a' not found in 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE INDEX ks.i", null), "Table for existing index 'i' not found in 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE MATERIALIZED VIEW ks.v", null), "Materialized view 'v' not found in 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE INDEX i", null), "No keyspace specified and no current keyspace");
    }

    @Test
    void genericDescribePrefersAKeyspaceThenATable() {
        assertThat(names(fixture.run("DESCRIBE ks", "system"))).first().isEqualTo("ks.ks");
        assertThat(text(fixture.run("DESCRIBE t2", "ks"))).containsExactly(row("ks", "table", "t2", CreateStatementsTest.T2));
        assertThat(text(fixture.run("DESCRIBE ks.t2", null))).containsExactly(row("ks", "table", "t2", CreateStatementsTest.T2));
        assertThat(columnNames(fixture.run("DESCRIBE ks", null))).containsExactly("keyspace_name", "type", "name", "create_statement");
    }

    @Test
    void genericDescribeErrorsAreCassandras() {
        assertInvalid(() -> fixture.run("DESCRIBE nope", "ks"), "'nope' not found in keyspace 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE ks.nope", null), "'nope' not found in keyspace 'ks'");
        assertInvalid(() -> fixture.run("DESCRIBE nope", null), "'nope' not found in keyspaces");
    }

    @Test
    void describeClusterWithoutKeyspaceHasThreeColumns() {
        Rows rows = fixture.run("DESCRIBE CLUSTER", null);
        assertThat(columnNames(rows)).containsExactly("cluster", "partitioner", "snitch");
        assertThat(text(rows)).containsExactly(row("Test Cluster", "Murmur3Partitioner", "DynamicEndpointSnitch"));
        assertThat(columnNames(fixture.run("DESCRIBE CLUSTER", "system_schema"))).hasSize(3);
    }

    @Test
    void describeClusterInAUserKeyspaceAddsRangeOwnership() {
        Rows rows = fixture.run("DESCRIBE CLUSTER", "ks");
        assertThat(columnNames(rows)).containsExactly("cluster", "partitioner", "snitch", "range_ownership");
        ColumnSpec ranges = rows.metadata().columns().get(3);
        assertThat(ranges.type().kind()).isEqualTo(ballot.cql.type.CqlType.Kind.MAP);
        assertThat(ranges.type().compose(rows.rows().get(0)[3])).isEqualTo(Map.of(
                "-1133213390089914886", List.of("/127.0.0.1:17000"), "9002574205265492483", List.of("/127.0.0.1:17000")));
    }

    @Test
    void pagesConcatenateToTheUnpagedResult() {
        List<List<String>> all = text(fixture.run("DESCRIBE FULL SCHEMA", null));
        List<List<String>> paged = new ArrayList<>();
        ByteBuffer state = null;
        int pages = 0;
        do {
            Rows page = fixture.run("DESCRIBE FULL SCHEMA", null, paged(4, state));
            assertThat(page.rows().size()).isLessThanOrEqualTo(4);
            paged.addAll(text(page));
            state = page.metadata().pagingState();
            pages++;
        } while (state != null);
        assertThat(paged).isEqualTo(all);
        assertThat(pages).isEqualTo((all.size() + 3) / 4);
    }

    @Test
    void lastFullPageHasNoPagingState() {
        Rows page = fixture.run("DESCRIBE KEYSPACES", null, paged(8, null));
        assertThat(page.rows()).hasSize(8);
        assertThat(page.metadata().pagingState()).isNull();
    }

    @Test
    void pagingStateFromAnotherSchemaVersionIsRefused() {
        Rows first = fixture.run("DESCRIBE KEYSPACES", null, paged(2, null));
        fixture.update(keyspaces -> {
            keyspaces.put("ks2", new KeyspaceMetadata("ks2", Map.of("class", DescribeFixture.SIMPLE, "replication_factor", "1"), true, Map.of(), Map.of()));
            return keyspaces;
        });
        assertInvalid(() -> fixture.run("DESCRIBE KEYSPACES", null, paged(2, first.metadata().pagingState())),
                "The schema has changed since the previous page of the DESCRIBE statement result. Please retry the DESCRIBE statement.");
    }

    @Test
    void malformedPagingStateIsRefused() {
        assertInvalid(() -> fixture.run("DESCRIBE KEYSPACES", null, paged(2, ByteBuffer.wrap(new byte[] {1, 2, 3}))), "Invalid paging state.");
    }

    @Test
    void preparedDescribeSeesSchemaChangesMadeAfterPreparing() {
        CqlStatement statement = fixture.prepare("DESCRIBE KEYSPACES", null);
        fixture.update(keyspaces -> {
            keyspaces.put("aaa", new KeyspaceMetadata("aaa", Map.of("class", DescribeFixture.SIMPLE, "replication_factor", "1"), true, Map.of(), Map.of()));
            return keyspaces;
        });
        assertThat(text(fixture.run(statement, null, QueryOptions.DEFAULT)).get(0)).containsExactly("aaa", "keyspace", "aaa");
    }

    private static void assertInvalid(Runnable describe, String message) {
        assertThatThrownBy(describe::run).isInstanceOf(InvalidRequestException.class).hasMessage(message)
                .extracting(e -> ((InvalidRequestException) e).code()).isEqualTo(ErrorCode.INVALID);
    }
}

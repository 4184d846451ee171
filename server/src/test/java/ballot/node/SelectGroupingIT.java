package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SELECT with GROUP BY, ORDER BY over IN, and limits, against Cassandra 5.0's answers (differential testing). */
class SelectGroupingIT {
    private static final String NO_PAGING_WITH_POST_ORDERING = "Cannot page queries with both ORDER BY and a IN restriction on the "
            + "partition key; you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query";

    private static TestNode node;
    /** The driver's default: pages of 5000 rows. */
    private static CqlSession paged;
    /** Requests without a page size. */
    private static CqlSession unpaged;

    @BeforeAll
    static void start() {
        node = TestNode.start("grouping");
        paged = node.session();
        unpaged = node.session(null, options -> options.withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, -1));
        paged.execute("CREATE KEYSPACE g WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (unpaged != null) unpaged.close();
        if (paged != null) paged.close();
        if (node != null) node.close();
    }

    private static List<List<Object>> rows(CqlSession session, String cql) {
        List<List<Object>> out = new ArrayList<>();
        for (Row row : session.execute(cql)) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < row.getColumnDefinitions().size(); i++) values.add(row.getObject(i));
            out.add(values);
        }
        return out;
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void groupByWithOrderByOverInSortsGroupsUnpagedAndIsRefusedPaged() {
        paged.execute("CREATE TABLE g.r1 (p int, c int, v int, PRIMARY KEY (p, c))");
        paged.execute("INSERT INTO g.r1 (p, c, v) VALUES (1, 1, 1)");
        paged.execute("INSERT INTO g.r1 (p, c, v) VALUES (2, 1, 1)");
        String grouped = "SELECT p, count(*) FROM g.r1 WHERE p IN (1, 2) GROUP BY p ORDER BY c DESC";
        assertThat(rows(unpaged, grouped)).containsExactly(row(1, 1L), row(2, 1L));
        assertThatThrownBy(() -> paged.execute(grouped)).isInstanceOf(InvalidQueryException.class).hasMessage(NO_PAGING_WITH_POST_ORDERING);
        String aggregate = "SELECT count(*) FROM g.r1 WHERE p IN (1, 2) ORDER BY c DESC";
        assertThat(rows(unpaged, aggregate)).containsExactly(row(2L));
        assertThatThrownBy(() -> paged.execute(aggregate)).isInstanceOf(InvalidQueryException.class).hasMessage(NO_PAGING_WITH_POST_ORDERING);
        assertThatThrownBy(() -> paged.execute("SELECT * FROM g.r1 WHERE p IN (1, 2) ORDER BY c DESC"))
                .isInstanceOf(InvalidQueryException.class).hasMessage(NO_PAGING_WITH_POST_ORDERING);
    }

    @Test
    void orderByOverInSortsOnTheOrderingColumnsOnlyThenLimits() {
        paged.execute("CREATE TABLE g.r13 (p int, c1 int, c2 int, PRIMARY KEY (p, c1, c2))");
        for (String values : List.of("1, 1, 1", "1, 2, 1", "1, 3, 1", "2, 3, 1", "2, 3, 2")) {
            paged.execute("INSERT INTO g.r13 (p, c1, c2) VALUES (" + values + ")");
        }
        assertThat(rows(unpaged, "SELECT p, c1, c2 FROM g.r13 WHERE p IN (1, 2) ORDER BY c1 DESC LIMIT 3"))
                .containsExactly(row(1, 3, 1), row(2, 3, 2), row(2, 3, 1));
        // Rows tying on c1 keep their partitions' order (and each partition's own, c2 descending here).
        assertThat(rows(unpaged, "SELECT p, c1, c2 FROM g.r13 WHERE p IN (1, 2) ORDER BY c1 DESC"))
                .containsExactly(row(1, 3, 1), row(2, 3, 2), row(2, 3, 1), row(1, 2, 1), row(1, 1, 1));
        assertThat(rows(unpaged, "SELECT p, c1, c2 FROM g.r13 WHERE p IN (2, 1) ORDER BY c1 ASC"))
                .containsExactly(row(1, 1, 1), row(1, 2, 1), row(1, 3, 1), row(2, 3, 1), row(2, 3, 2));
    }

    @Test
    void groupByWithoutMatchingRowsReturnsNoRow() {
        paged.execute("CREATE TABLE g.r3 (p int, c int, v int, PRIMARY KEY (p, c))");
        paged.execute("INSERT INTO g.r3 (p, c, v) VALUES (1, 1, 1)");
        assertThat(rows(paged, "SELECT p, count(*) FROM g.r3 WHERE p = 9 GROUP BY p")).isEmpty();
        assertThat(rows(paged, "SELECT p, c, v FROM g.r3 WHERE p = 9 GROUP BY p")).isEmpty();
        assertThat(rows(paged, "SELECT p, count(*) FROM g.r3 WHERE v = 9 GROUP BY p ALLOW FILTERING")).isEmpty();
        // Without GROUP BY an aggregate still answers one row.
        assertThat(rows(paged, "SELECT count(*) FROM g.r3 WHERE p = 9")).containsExactly(row(0L));
    }

    @Test
    void groupByLimitsCountGroups() {
        paged.execute("CREATE TABLE g.r4 (p int, c1 int, c2 int, PRIMARY KEY (p, c1, c2))");
        for (String values : List.of("1, 1, 1", "1, 1, 2", "1, 2, 1", "2, 1, 1", "2, 2, 1")) {
            paged.execute("INSERT INTO g.r4 (p, c1, c2) VALUES (" + values + ")");
        }
        assertThat(rows(paged, "SELECT p, c1, count(*) FROM g.r4 WHERE p = 1 GROUP BY p, c1 PER PARTITION LIMIT 1"))
                .containsExactly(row(1, 1, 2L));
        assertThat(rows(paged, "SELECT p, c1, count(*) FROM g.r4 WHERE p = 1 GROUP BY p, c1 LIMIT 2"))
                .containsExactly(row(1, 1, 2L), row(1, 2, 1L));
        assertThat(rows(paged, "SELECT p, c1, count(*) FROM g.r4 GROUP BY p, c1 PER PARTITION LIMIT 1"))
                .containsExactlyInAnyOrder(row(1, 1, 2L), row(2, 1, 1L));
        assertThat(rows(paged, "SELECT p, c1, count(*) FROM g.r4 WHERE p IN (1, 2) GROUP BY p, c1 LIMIT 3"))
                .containsExactly(row(1, 1, 2L), row(1, 2, 1L), row(2, 1, 1L));
        assertThat(rows(paged, "SELECT p, c1, c2 FROM g.r4 WHERE p = 1 GROUP BY p, c1 LIMIT 2"))
                .containsExactly(row(1, 1, 1), row(1, 2, 1));
    }

    @Test
    void groupByMaySkipKeyColumnsRestrictedByEquality() {
        paged.execute("CREATE TABLE g.r5 (p int, c1 int, c2 int, PRIMARY KEY (p, c1, c2))");
        for (String values : List.of("1, 1, 1", "1, 1, 2", "1, 2, 1", "2, 1, 1")) {
            paged.execute("INSERT INTO g.r5 (p, c1, c2) VALUES (" + values + ")");
        }
        assertThat(rows(paged, "SELECT c1, count(*) FROM g.r5 WHERE p = 1 GROUP BY c1")).containsExactly(row(1, 2L), row(2, 1L));
        assertThat(rows(paged, "SELECT c2, count(*) FROM g.r5 WHERE p = 1 AND c1 = 1 GROUP BY c2")).containsExactly(row(1, 1L), row(2, 1L));
        assertThatThrownBy(() -> paged.execute("SELECT c1, count(*) FROM g.r5 WHERE p IN (1, 2) GROUP BY c1"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Group by currently only support groups of columns following their declared order in the PRIMARY KEY");
    }

    /**
     * As Cassandra, a page holds at most the page size in groups (not in rows), and a query paged in twos gives the same
     * groups as unpaged, with LIMIT and PER PARTITION LIMIT still counting groups across pages.
     */
    @Test
    void groupByPagesByGroups() {
        paged.execute("CREATE TABLE g.r6 (p int, c1 int, c2 int, v int, PRIMARY KEY (p, c1, c2))");
        for (int p = 0; p < 4; p++) {
            for (int c1 = 0; c1 < 3; c1++) {
                for (int c2 = 0; c2 < 2; c2++) {
                    paged.execute("INSERT INTO g.r6 (p, c1, c2, v) VALUES (" + p + ", " + c1 + ", " + c2 + ", " + (p * 10 + c1) + ")");
                }
            }
        }
        for (String query : List.of("SELECT p, c1, count(*), sum(v) FROM g.r6 GROUP BY p, c1",
                "SELECT p, c1, count(*) FROM g.r6 GROUP BY p, c1 LIMIT 5",
                "SELECT p, c1, count(*) FROM g.r6 GROUP BY p, c1 PER PARTITION LIMIT 2",
                "SELECT p, c1, count(*) FROM g.r6 GROUP BY p, c1 PER PARTITION LIMIT 2 LIMIT 5",
                "SELECT p, count(*) FROM g.r6 GROUP BY p",
                "SELECT c1, count(*) FROM g.r6 WHERE p = 1 GROUP BY c1",
                "SELECT p, c1, c2 FROM g.r6 WHERE p IN (1, 2) GROUP BY p, c1")) {
            List<List<Object>> whole = rows(unpaged, query);
            com.datastax.oss.driver.api.core.cql.ResultSet twos = paged.execute(
                    com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(query).setPageSize(2));
            assertThat(twos.getAvailableWithoutFetching()).as("first page of %s", query).isEqualTo(Math.min(2, whole.size()));
            List<List<Object>> all = new ArrayList<>();
            for (Row row : twos) {
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < row.getColumnDefinitions().size(); i++) values.add(row.getObject(i));
                all.add(values);
            }
            assertThat(all).as(query).isEqualTo(whole);
        }
        assertThat(rows(unpaged, "SELECT p, c1, count(*) FROM g.r6 GROUP BY p, c1 PER PARTITION LIMIT 2 LIMIT 5")).hasSize(5);
    }
}

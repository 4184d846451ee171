package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link PagingProperty} on one node, and paging through the system tables the drivers read at connect. */
class PagingPropertyIT {
    private static TestNode node;
    private static CqlSession session;
    private static PagingProperty property;

    @BeforeAll
    static void start() {
        node = TestNode.start("paging");
        session = node.session();
        session.execute("CREATE KEYSPACE paging WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        property = new PagingProperty(session, "paging");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    @Test
    void pagedReadsEqualUnpagedReadsAndTheModelForRandomSchemas() {
        property.checkRandomSchemas(16);
    }

    @Test
    void aggregatesOverThousandsOfPartitionsCountEachRowOnce() {
        property.checkAggregatesOverManyPartitions(3_000);
    }

    @Test
    void pagingThroughSystemTablesEndsAndRepeatsNoRow() {
        session.execute("CREATE TABLE IF NOT EXISTS paging.sys_probe (k int PRIMARY KEY, v int)");
        for (String table : List.of("system.local", "system.peers", "system_schema.keyspaces", "system_schema.tables",
                "system_schema.columns", "system_schema.types")) {
            List<String> all = property.read("SELECT * FROM " + table, Integer.MAX_VALUE, 100_000);
            for (int pageSize : new int[] {1, 2, 3, 7, 50}) {
                assertThat(property.read("SELECT * FROM " + table, pageSize, all.size() + 1))
                        .as("%s at page size %d", table, pageSize).isEqualTo(all);
            }
        }
    }
}

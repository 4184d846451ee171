package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A statement that reads in several chunks ends within its read or range timeout as a whole (issue 11, wedge 1): each
 * chunk used to get the whole timeout afresh, so four concurrent unpaged scans ran for twice the range timeout.
 */
class StatementDeadlineIT {
    private static final int ROWS = 20_000; // four chunks of an unpaged scan

    @Test
    void anUnpagedScanEndsWithReadTimeoutOnceItsRangeTimeoutHasPassed() {
        try (TestNode node = TestNode.start("statement-deadline", config -> config.rangeTimeoutMillis = 1);
             CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE kd WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE kd.t (k int PRIMARY KEY, v int)");
            PreparedStatement insert = session.prepare("INSERT INTO kd.t (k, v) VALUES (?, ?)");
            Load.inWindows(session, ROWS, k -> insert.bind(k, k));

            assertThat(session.execute("SELECT v FROM kd.t WHERE k = 7").one().getInt("v"))
                    .as("a single-partition read keeps the read timeout").isEqualTo(7);
            // The driver replaces a page size of 0 or less with its default (5000 rows: one chunk, read before the
            // deadline is looked at again), so the whole table in one page is asked for with the largest page size.
            SimpleStatement unpaged = SimpleStatement.newInstance("SELECT * FROM kd.t").setPageSize(Integer.MAX_VALUE);
            assertThatThrownBy(() -> session.execute(unpaged)).isInstanceOf(ReadTimeoutException.class);
            SimpleStatement unpagedWithTime = SimpleStatement.newInstance("SELECT * FROM kd.t USING TIMEOUT 60s").setPageSize(Integer.MAX_VALUE);
            assertThat(session.execute(unpagedWithTime).getAvailableWithoutFetching())
                    .as("the same scan with a statement timeout long enough reads every chunk into one page").isEqualTo(ROWS);
        }
    }
}

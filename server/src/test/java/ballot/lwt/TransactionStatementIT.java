package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Cassandra 6.0's {@code BEGIN TRANSACTION ... COMMIT TRANSACTION} on a real node through the DataStax driver
 * (docs/txn.md §11.2): a ledger transfer with LETs, an IF over them and {@code -=}/{@code +=}, prepared and not;
 * the answer's shapes (LET values, a returning SELECT, VOID) hold the values before the transaction, also when the IF
 * fails; concurrent transfers keep the total; and what Cassandra refuses is refused with its messages.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionStatementIT {
    private static final String TRANSFER = """
            BEGIN TRANSACTION
              LET src = (SELECT balance FROM tx.accounts WHERE id = ?);
              LET dst = (SELECT balance FROM tx.accounts WHERE id = ?);
              SELECT src.balance, dst.balance;
              IF src IS NOT NULL AND dst IS NOT NULL AND src.balance >= ? THEN
                UPDATE tx.accounts SET balance -= ? WHERE id = ?;
                UPDATE tx.accounts SET balance += ? WHERE id = ?;
                INSERT INTO tx.ledger (id, seq, amount) VALUES (?, ?, ?);
              END IF
            COMMIT TRANSACTION""";
    private PaxosCluster cluster;
    private CqlSession session;

    @BeforeAll
    void start() {
        cluster = PaxosCluster.start("txstmt", 1, 1000);
        session = cluster.session();
        session.execute("CREATE KEYSPACE tx WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE tx.accounts (id int PRIMARY KEY, balance decimal)");
        session.execute("CREATE TABLE tx.ledger (id int, seq int, amount decimal, PRIMARY KEY (id, seq))");
        session.execute("CREATE TABLE tx.cnt (k int PRIMARY KEY, n counter)");
        session.execute("CREATE TABLE tx.cars (model text PRIMARY KEY, miles int, running boolean)");
        session.execute("CREATE TABLE tx.users (name text PRIMARY KEY, miles int)");
    }

    @AfterAll
    void stop() {
        if (session != null) session.close();
        if (cluster != null) cluster.close();
    }

    private void open(int id, int balance) {
        session.execute("INSERT INTO tx.accounts (id, balance) VALUES (?, ?)", id, BigDecimal.valueOf(balance));
    }

    private BigDecimal balance(int id) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT balance FROM tx.accounts WHERE id = ?", id)
                .setConsistencyLevel(ConsistencyLevel.SERIAL)).one();
        return row == null ? null : row.getBigDecimal(0);
    }

    private ResultSet transfer(PreparedStatement prepared, int from, int to, int amount, int seq) {
        BigDecimal a = BigDecimal.valueOf(amount);
        return session.execute(prepared.bind(from, to, a, a, from, a, to, from, seq, a.negate()));
    }

    @Test
    void aPreparedTransferAppliesOnlyWhenItsConditionsHoldAndAnswersWithTheValuesBefore() {
        open(1, 100);
        open(2, 50);
        PreparedStatement prepared = session.prepare(TRANSFER);
        List<String> names = new ArrayList<>();
        prepared.getResultSetDefinitions().forEach(d -> names.add(d.getName().asInternal()));
        assertThat(names).containsExactly("src.balance", "dst.balance");
        assertThat(prepared.getVariableDefinitions().size()).isEqualTo(10);

        Row applied = transfer(prepared, 1, 2, 30, 1).one();
        assertThat(applied.getBigDecimal(0)).isEqualByComparingTo("100");
        assertThat(applied.getBigDecimal(1)).isEqualByComparingTo("50");
        assertThat(balance(1)).isEqualByComparingTo("70");
        assertThat(balance(2)).isEqualByComparingTo("80");

        Row refused = transfer(prepared, 1, 2, 80, 2).one();
        assertThat(refused.getBigDecimal(0)).as("the value the condition failed on").isEqualByComparingTo("70");
        assertThat(balance(1)).isEqualByComparingTo("70");
        assertThat(session.execute("SELECT seq FROM tx.ledger WHERE id = 1").all()).as("only the applied transfer's entry").hasSize(1);

        Row missing = transfer(prepared, 1, 99, 10, 3).one();
        assertThat(missing.isNull(1)).as("an absent LET row reads as null").isTrue();
        assertThat(balance(99)).isNull();
        assertThat(balance(1)).isEqualByComparingTo("70");
    }

    @Test
    void theAnswerIsAReturningSelectsRowsOrVoid() {
        open(10, 5);
        ResultSet rows = session.execute("BEGIN TRANSACTION SELECT id, balance FROM tx.accounts WHERE id = 10; "
                + "UPDATE tx.accounts SET balance = 6 WHERE id = 10; COMMIT TRANSACTION");
        Row row = rows.one();
        assertThat(row.getInt("id")).isEqualTo(10);
        assertThat(row.getBigDecimal("balance")).as("before the write").isEqualByComparingTo("5");
        assertThat(balance(10)).isEqualByComparingTo("6");
        ResultSet none = session.execute("BEGIN TRANSACTION INSERT INTO tx.accounts (id, balance) VALUES (11, 1); COMMIT TRANSACTION;");
        assertThat(none.getColumnDefinitions().size()).isZero();
        assertThat(balance(11)).isEqualByComparingTo("1");
    }

    @Test
    void concurrentTransfersKeepTheTotal() throws Exception {
        int accounts = 5;
        for (int i = 0; i < accounts; i++) open(100 + i, 1000);
        PreparedStatement prepared = session.prepare(TRANSFER);
        ExecutorService clients = Executors.newFixedThreadPool(6);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            Random random = new Random(c);
            int client = c;
            done.add(clients.submit(() -> {
                for (int n = 0; n < 20; n++) {
                    int from = 100 + random.nextInt(accounts);
                    int to = 100 + (from - 100 + 1 + random.nextInt(accounts - 1)) % accounts;
                    try {
                        transfer(prepared, from, to, 1 + random.nextInt(50), 1000 * client + n);
                    } catch (WriteTimeoutException | ReadTimeoutException unknown) {
                        // contended and undecided in time: it may apply or not, and the total holds either way
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) f.get(5, TimeUnit.MINUTES);
        clients.shutdown();
        BigDecimal total = BigDecimal.ZERO;
        for (int i = 0; i < accounts; i++) total = total.add(balance(100 + i));
        assertThat(total).isEqualByComparingTo(BigDecimal.valueOf(accounts * 1000L));
    }

    /**
     * CEP-15's example: updates that write LET values ({@code SET miles = car.miles + 30}) take them from the rows the
     * transaction read, on each run; prepared, the client binds only its own markers; a value first in a condition
     * reads as the reference first.
     */
    @Test
    void updatesWriteLetValuesFromTheRowsTheTransactionRead() {
        session.execute("INSERT INTO tx.cars (model, miles, running) VALUES ('pinto', 100, true)");
        session.execute("INSERT INTO tx.users (name, miles) VALUES ('blake', 7)");
        String drive = """
                BEGIN TRANSACTION
                  LET car = (SELECT miles, running FROM tx.cars WHERE model = 'pinto');
                  LET user_miles = (SELECT miles FROM tx.users WHERE name = 'blake');
                  SELECT car.running, car.miles;
                  IF car.running = true AND 0 < car.miles THEN
                    UPDATE tx.users SET miles = user_miles.miles + 30 WHERE name = 'blake';
                    UPDATE tx.cars SET miles = car.miles + 30 WHERE model = 'pinto';
                  END IF
                COMMIT TRANSACTION""";
        Row before = session.execute(drive).one();
        assertThat(before.getBoolean("car.running")).isTrue();
        assertThat(before.getInt("car.miles")).isEqualTo(100);
        session.execute(drive);
        assertThat(session.execute("SELECT miles FROM tx.cars WHERE model = 'pinto'").one().getInt(0)).isEqualTo(160);
        assertThat(session.execute("SELECT miles FROM tx.users WHERE name = 'blake'").one().getInt(0)).isEqualTo(67);

        PreparedStatement prepared = session.prepare("""
                BEGIN TRANSACTION
                  LET car = (SELECT miles FROM tx.cars WHERE model = ?);
                  IF ? <= car.miles THEN
                    UPDATE tx.cars SET miles = (int) ? * car.miles, running = ? WHERE model = ?;
                  END IF
                COMMIT TRANSACTION""");
        assertThat(prepared.getVariableDefinitions().size()).as("the LET values' hidden markers are not the client's").isEqualTo(5);
        session.execute(prepared.bind("pinto", 1000, 2, false, "pinto"));
        assertThat(session.execute("SELECT miles FROM tx.cars WHERE model = 'pinto'").one().getInt(0)).as("160 < 1000: not applied").isEqualTo(160);
        session.execute(prepared.bind("pinto", 160, 2, false, "pinto"));
        Row car = session.execute("SELECT miles, running FROM tx.cars WHERE model = 'pinto'").one();
        assertThat(car.getInt(0)).isEqualTo(320);
        assertThat(car.getBoolean(1)).isFalse();

        session.execute("BEGIN TRANSACTION LET u = (SELECT miles FROM tx.users WHERE name = 'blake'); "
                + "INSERT INTO tx.users (name, miles) VALUES ('blake', u.miles - 60); COMMIT TRANSACTION");
        assertThat(session.execute("SELECT miles FROM tx.users WHERE name = 'blake'").one().getInt(0)).isEqualTo(7);
        assertInvalid("BEGIN TRANSACTION LET car = (SELECT miles FROM tx.cars WHERE model = 'pinto'); "
                + "UPDATE tx.users SET miles = car.miles WHERE name = 'blake'; COMMIT TRANSACTION",
                "The LET value car.miles is read from another partition than the one its update of tx.users writes");
        assertInvalid("BEGIN TRANSACTION LET car = (SELECT miles FROM tx.cars WHERE model = 'pinto'); "
                + "UPDATE tx.cars SET miles = car.running WHERE model = 'pinto'; COMMIT TRANSACTION",
                "car.running references a column not included in the select");
    }

    @Test
    void refusesWhatCassandraRefuses() {
        assertInvalid("BEGIN TRANSACTION LET a = (SELECT * FROM tx.accounts WHERE id = 1); COMMIT TRANSACTION",
                "Transaction contains no reads or writes");
        assertInvalid("BEGIN TRANSACTION LET a = (SELECT * FROM tx.accounts WHERE id = 1); LET a = (SELECT * FROM tx.accounts WHERE id = 2); "
                + "SELECT a.balance; COMMIT TRANSACTION", "The name 'a' has already been used by a LET assignment.");
        assertInvalid("BEGIN TRANSACTION LET a = (SELECT * FROM tx.ledger WHERE id = 1); SELECT a.amount; COMMIT TRANSACTION",
                "SELECT must specify either all primary key elements or all partition key elements and LIMIT 1");
        assertInvalid("BEGIN TRANSACTION SELECT b.balance; COMMIT TRANSACTION", "Cannot resolve reference to tuple 'b'.");
        assertInvalid("BEGIN TRANSACTION LET a = (SELECT balance FROM tx.accounts WHERE id = 1); SELECT a.id; COMMIT TRANSACTION",
                "a.id references a column not included in the select");
        assertInvalid("BEGIN TRANSACTION UPDATE tx.accounts SET balance = 1 WHERE id = 1 IF balance = 2; COMMIT TRANSACTION",
                "Updates within transactions may not specify their own conditions");
        assertInvalid("BEGIN TRANSACTION UPDATE tx.accounts USING TIMESTAMP 5 SET balance = 1 WHERE id = 1; COMMIT TRANSACTION",
                "Updates within transactions may not specify custom timestamps");
        assertInvalid("BEGIN TRANSACTION UPDATE tx.cnt SET n += 1 WHERE k = 1; COMMIT TRANSACTION",
                "Counter columns cannot be accessed within a transaction");
        assertInvalid("BEGIN TRANSACTION SELECT * FROM tx.accounts; COMMIT TRANSACTION",
                "Range queries are not allowed for reads within a transaction");
        assertInvalid("UPDATE tx.accounts SET balance += 1 WHERE id = 1", "for non counter column balance");
        assertThatThrownBy(() -> session.execute("BEGIN TRANSACTION LET a = (SELECT * FROM tx.accounts WHERE id = 1); "
                + "IF a.balance > 1 THEN UPDATE tx.accounts SET balance = 1 WHERE id = 1; COMMIT TRANSACTION"))
                .as("IF without END IF").isInstanceOf(SyntaxError.class);
    }

    private void assertInvalid(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessageContaining(message);
    }
}

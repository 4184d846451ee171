package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CREATE, ALTER and DROP TYPE refusals as a Cassandra 5.0.9 node gave them. */
class TypeStatementsTest {
    private final SchemaFixture schema = new SchemaFixture();

    @BeforeEach
    void keyspace() {
        schema.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        schema.run("CREATE TYPE ks.addr (street text, zip int)");
    }

    private void refused(String cql, String message) {
        assertThatThrownBy(() -> schema.run(cql)).isExactlyInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void aFieldHoldsAUserTypeOnlyFrozen() {
        refused("CREATE TYPE ks.home (a addr)", "A user type cannot contain non-frozen UDTs");
        assertThat(schema.keyspace("ks").type("home")).isNull();
        refused("ALTER TYPE ks.addr ADD other addr", "A user type cannot contain non-frozen UDTs");
        schema.run("CREATE TYPE ks.home (a frozen<addr>)");
        assertThat(schema.keyspace("ks").type("home")).isNotNull();
    }

    @Test
    void aTypeCannotContainItself() {
        refused("CREATE TYPE ks.self (a frozen<self>)", "Unknown type ks.self");
        refused("ALTER TYPE ks.addr ADD self frozen<addr>",
                "Cannot add new field self of type frozen<addr> to user type ks.addr as it would create a circular reference");
    }

    @Test
    void fieldRefusalsSpeakAsCassandra() {
        refused("ALTER TYPE ks.addr ADD zip int", "Cannot add field zip to type ks.addr: a field with name zip already exists");
        refused("ALTER TYPE ks.addr RENAME nope TO other", "Unkown field nope in user type ks.addr");
        refused("ALTER TYPE ks.addr RENAME zip TO street", "Duplicate field name street in type ks");
    }

    @Test
    void aTypeInUseNamesEveryTypeThenEveryTableUsingIt() {
        schema.run("CREATE TYPE ks.person (home frozen<addr>)");
        schema.run("CREATE TYPE ks.shop (site frozen<addr>)");
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, a frozen<addr>)");
        refused("DROP TYPE ks.addr", "Cannot drop user type 'ks.addr' as it is still used by user types person, shop");
        schema.run("DROP TYPE ks.person");
        schema.run("DROP TYPE ks.shop");
        refused("DROP TYPE ks.addr", "Cannot drop user type 'ks.addr' as it is still used by tables t");
        refused("DROP TYPE nope.addr", "Type 'nope.addr' doesn't exist");
    }
}

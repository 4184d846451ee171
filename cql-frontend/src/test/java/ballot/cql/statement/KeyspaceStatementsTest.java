package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.error.UnauthorizedException;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.KeyspaceMetadata;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CREATE and ALTER KEYSPACE as a Cassandra 5.0.9 node with one data center (datacenter1) answered them. */
class KeyspaceStatementsTest {
    private static final String NTS = "org.apache.cassandra.locator.NetworkTopologyStrategy";
    private static final String SIMPLE = "org.apache.cassandra.locator.SimpleStrategy";

    private final SchemaFixture schema = new SchemaFixture();

    private Map<String, String> replication(String keyspace) {
        return schema.keyspace(keyspace).replication();
    }

    @Test
    void networkTopologyLeavesOutDataCentersWithFactorZeroAndNeedsOne() {
        schema.run("CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1, 'dc9': 0}");
        assertThat(replication("k")).isEqualTo(Map.of("class", NTS, "datacenter1", "1"));
        assertThatThrownBy(() -> schema.run("ALTER KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 0}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Configuration for at least one datacenter must be present");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k2 WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 0}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Configuration for at least one datacenter must be present");
    }

    @Test
    void networkTopologyReplicationFactorNeverChangesAFactorTheKeyspaceHas() {
        schema.run("CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 2}");
        assertThat(schema.run("ALTER KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 3}"))
                .isInstanceOf(VoidResult.class);
        assertThat(schema.run("ALTER KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy'}")).isInstanceOf(VoidResult.class);
        assertThat(replication("k")).isEqualTo(Map.of("class", NTS, "datacenter1", "2"));
        schema.run("ALTER KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        schema.run("ALTER KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy'}");
        assertThat(replication("k")).isEqualTo(Map.of("class", NTS, "datacenter1", "3"));
    }

    @Test
    void anEmptyReplicationMapKeepsTheReplication() {
        schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
        assertThat(schema.run("ALTER KEYSPACE k WITH replication = {}")).isInstanceOf(VoidResult.class);
        assertThat(replication("k")).isEqualTo(Map.of("class", SIMPLE, "replication_factor", "2"));
    }

    @Test
    void durableWritesTakesCassandrasBooleans() {
        schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} AND durable_writes = 'no'");
        assertThat(schema.keyspace("k").durableWrites()).isFalse();
        schema.run("ALTER KEYSPACE k WITH durable_writes = 1");
        assertThat(schema.keyspace("k").durableWrites()).isTrue();
        assertThatThrownBy(() -> schema.run("ALTER KEYSPACE k WITH durable_writes = 2")).isInstanceOf(SyntaxException.class)
                .hasMessage("Invalid boolean value 2 for 'durable_writes'. Positive values can be '1', 'true' or 'yes'. "
                        + "Negative values can be '0', 'false' or 'no'.");
    }

    @Test
    void optionValuesAreReadOnlyOnceTheKeyspaceIsKnownNotToExist() {
        schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        assertThat(schema.run("CREATE KEYSPACE IF NOT EXISTS k WITH replication = {'class': 'Bogus'} AND durable_writes = 'maybe'"))
                .isInstanceOf(VoidResult.class);
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'Bogus'}")).isInstanceOf(AlreadyExistsException.class);
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE IF NOT EXISTS k WITH replication = {'replication_factor': 1}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Missing replication strategy class");
    }

    @Test
    void aPropertyMapKeyGivenTwiceIsASyntaxError() {
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1, "
                + "'replication_factor': 2}")).isInstanceOf(SyntaxException.class).hasMessage("Multiple definition for property replication_factor");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'} AND durable_writes = true "
                + "AND durable_writes = false")).isInstanceOf(SyntaxException.class).hasMessage("Multiple definitions for property 'durable_writes'");
    }

    @Test
    void refusalsNameTheKeyspaceAndTheFullClassName() {
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'foo': 1}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Unrecognized strategy option {foo} passed to SimpleStrategy for keyspace k");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'dc9': 1}"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Unrecognized strategy option {dc9} passed to NetworkTopologyStrategy for keyspace k");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'Bogus'}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Unable to find replication strategy class 'org.apache.cassandra.locator.Bogus'");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'EverywhereStrategy'}"))
                .hasMessage("Unable to find replication strategy class 'org.apache.cassandra.locator.EverywhereStrategy'");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'LocalStrategy'}"))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessage("Unable to use given strategy class: LocalStrategy is reserved for internal use.");
    }

    @Test
    void replicationFactorsAreReadAsCassandraReadsThem() {
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': ' 2'}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("For input string: \" 2\"");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': -1}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Replication factor must be non-negative, found -1");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '2/1'}"))
                .isInstanceOf(ConfigurationException.class).hasMessage("Transient replication is not enabled on this node");
        assertThat(schema.run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 0}"))
                .isEqualTo(SchemaChange.keyspace(SchemaChange.Change.CREATED, "k"));
    }

    @Test
    void aReplicatedSystemKeyspaceAlreadyExistsAndALocalOneIsNotUserModifiable() {
        schema.put(new KeyspaceMetadata("system_auth", Map.of("class", SIMPLE, "replication_factor", "1"), true, Map.of(), Map.of()));
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy'}"))
                .isInstanceOf(AlreadyExistsException.class);
        assertThat(schema.run("CREATE KEYSPACE IF NOT EXISTS system_auth WITH replication = {'class': 'SimpleStrategy'}"))
                .isInstanceOf(VoidResult.class);
        for (String keyspace : new String[] {"system", "system_traces"}) {
            assertThatThrownBy(() -> schema.run("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = {'class': 'SimpleStrategy'}"))
                    .isExactlyInstanceOf(InvalidRequestException.class).hasMessage("System keyspace '" + keyspace + "' is not user-modifiable");
        }
    }

    @Test
    void theReplicationOfCassandrasReplicatedSystemKeyspacesMayBeAltered() {
        for (String keyspace : new String[] {"system_auth", "system_distributed", "system_traces"}) {
            schema.put(new KeyspaceMetadata(keyspace, Map.of("class", SIMPLE, "replication_factor", "1"), true, Map.of(), Map.of()));
            schema.run("ALTER KEYSPACE " + keyspace + " WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}");
            assertThat(replication(keyspace)).isEqualTo(Map.of("class", NTS, "datacenter1", "3"));
        }
        schema.put(new KeyspaceMetadata("system_schema", Map.of("class", "org.apache.cassandra.locator.LocalStrategy"), true, Map.of(), Map.of()));
        assertThatThrownBy(() -> schema.run("ALTER KEYSPACE system_schema WITH durable_writes = false")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("system_schema keyspace is not user-modifiable.");
    }

    @Test
    void keyspaceNamesAreCheckedForCharactersThenLength() {
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE \"k-" + "b".repeat(60) + "\" WITH replication = {'class': 'SimpleStrategy'}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Keyspace name must not be empty and must contain alphanumeric or underscore characters only (got \"k-" + "b".repeat(60) + "\")");
        assertThatThrownBy(() -> schema.run("CREATE KEYSPACE " + "a".repeat(49) + " WITH replication = {'class': 'SimpleStrategy'}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Keyspace name must not be more than 48 characters long (got 49 characters for \"" + "a".repeat(49) + "\")");
    }
}

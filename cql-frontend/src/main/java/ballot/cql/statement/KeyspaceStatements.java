package ballot.cql.statement;

import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.parse.Properties;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.SystemKeyspaceNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** CREATE, ALTER and DROP KEYSPACE. */
final class KeyspaceStatements {
    private static final String LOCATOR = "org.apache.cassandra.locator.";

    private KeyspaceStatements() {}

    static SchemaStatement create(Statement.CreateKeyspace s, Set<String> dataCenters) {
        checkKeyspaceName(s.name());
        // Creating a local one is invalid, as in Cassandra, and a replicated one (system_auth) already exists;
        // altering or dropping one is unauthorized (checkUserKeyspace).
        if (SystemKeyspaceNames.LOCAL.contains(s.name())) throw SchemaStatement.systemKeyspace(s.name());
        Options options = options(s.properties(), true);
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                if (current.containsKey(s.name())) {
                    if (s.ifNotExists()) return current;
                    throw new AlreadyExistsException(s.name(), "");
                }
                if (SystemKeyspaceNames.ALL.contains(s.name())) throw SchemaStatement.systemKeyspace(s.name());
                // As in Cassandra, the options' values are read once the keyspace is known not to exist
                return with(current, new KeyspaceMetadata(s.name(), options.replication(Map.of(), s.name(), dataCenters),
                        options.durableWrites(true), Map.of(), Map.of()));
            }

            SchemaChange change() {
                return SchemaChange.keyspace(SchemaChange.Change.CREATED, s.name());
            }
        };
    }

    /** Cassandra's rules for a new keyspace's name: the characters first, then the length. */
    private static void checkKeyspaceName(String name) {
        if (name.isEmpty() || !SchemaStatement.NAME.matcher(name).matches()) {
            throw new InvalidRequestException("Keyspace name must not be empty and must contain alphanumeric or underscore characters only (got \""
                    + name + "\")");
        }
        if (name.length() > SchemaStatement.KEYSPACE_NAME_MAX) {
            throw new InvalidRequestException("Keyspace name must not be more than " + SchemaStatement.KEYSPACE_NAME_MAX
                    + " characters long (got " + name.length() + " characters for \"" + name + "\")");
        }
    }

    static SchemaStatement alter(Statement.AlterKeyspace s, Set<String> dataCenters) {
        // the replicated system keyspaces' replication may change: with one replica each role lives on one node, and
        // traces and system_distributed want more replicas as data centers are added (who may is checked before)
        if (!SystemKeyspaceNames.REPLICATED.contains(s.name())) SchemaStatement.checkUserKeyspace(s.name());
        Options options = options(s.properties(), false);
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = current.get(s.name());
                if (ks == null) {
                    if (s.ifExists()) return current;
                    throw new InvalidRequestException("Keyspace '" + s.name() + "' doesn't exist");
                }
                return with(current, ks.withReplication(options.replication(ks.replication(), s.name(), dataCenters),
                        options.durableWrites(ks.durableWrites())));
            }

            SchemaChange change() {
                return SchemaChange.keyspace(SchemaChange.Change.UPDATED, s.name());
            }
        };
    }

    static SchemaStatement drop(Statement.DropKeyspace s) {
        SchemaStatement.checkUserKeyspace(s.name());
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                if (!current.containsKey(s.name())) {
                    if (s.ifExists()) return current;
                    throw new InvalidRequestException("Keyspace '" + s.name() + "' doesn't exist");
                }
                Map<String, KeyspaceMetadata> next = new TreeMap<>(current);
                next.remove(s.name());
                return next;
            }

            SchemaChange change() {
                return SchemaChange.keyspace(SchemaChange.Change.DROPPED, s.name());
            }
        };
    }

    /**
     * The options as given: {@code replication} (null, or a map with a class unless it is empty) and {@code
     * durableWrites} (null or its text), read against the keyspace by {@link #replication} and {@link #durableWrites}.
     */
    private record Options(Map<String, String> replication, String durableWrites) {
        /** The replication the keyspace gets, given its current one (empty for a new keyspace). */
        Map<String, String> replication(Map<String, String> current, String keyspace, Set<String> dataCenters) {
            // ALTER with an empty map keeps the replication, as Cassandra does
            if (replication == null || replication.isEmpty()) return current;
            return KeyspaceStatements.replication(replication, current, keyspace, dataCenters);
        }

        boolean durableWrites(boolean current) {
            return durableWrites == null ? current : Properties.parseBoolean("durable_writes", durableWrites);
        }
    }

    private static Options options(Properties properties, boolean create) {
        Map<String, String> replication = null;
        String durableWrites = null;
        for (Map.Entry<String, Object> e : properties.values().entrySet()) {
            switch (e.getKey()) {
                case "replication" -> {
                    if (!(e.getValue() instanceof Map<?, ?> map)) throw new SyntaxException("Invalid value for property 'replication'. It should be a map.");
                    @SuppressWarnings("unchecked")
                    Map<String, String> raw = (Map<String, String>) map;
                    if (!raw.containsKey("class") && (create || !raw.isEmpty())) throw new ConfigurationException("Missing replication strategy class");
                    replication = raw;
                }
                case "durable_writes" -> durableWrites = e.getValue().toString();
                default -> throw new SyntaxException("Unknown property '" + e.getKey() + "'");
            }
        }
        if (create && replication == null) throw new InvalidRequestException("Missing mandatory option 'replication'");
        return new Options(replication, durableWrites);
    }

    /**
     * The replication factor of a keyspace created without one, SimpleStrategy's or every data center's for
     * NetworkTopologyStrategy: Cassandra 4.1+'s {@code default_keyspace_rf}, 1 by default.
     */
    private static final String DEFAULT_REPLICATION_FACTOR = "1";
    private static final String REPLICATION_FACTOR = "replication_factor";

    /**
     * Validates replication options and normalises them as Cassandra stores them (fully qualified class name), given
     * the keyspace's current replication ({@code current}, empty for a new keyspace).
     */
    static Map<String, String> replication(Map<String, String> raw, Map<String, String> current, String keyspace, Set<String> dataCenters) {
        String cls = raw.get("class");
        String qualified = cls.contains(".") ? cls : LOCATOR + cls;
        String simple = qualified.startsWith(LOCATOR) ? qualified.substring(LOCATOR.length()) : qualified;
        Map<String, String> options = new LinkedHashMap<>(raw);
        options.remove("class");
        Map<String, String> previous = new LinkedHashMap<>(current);
        previous.remove("class");
        Map<String, String> out = new LinkedHashMap<>();
        out.put("class", qualified);
        switch (simple) {
            case "SimpleStrategy" -> {
                options.putIfAbsent(REPLICATION_FACTOR, DEFAULT_REPLICATION_FACTOR);
                String factor = factor(options.remove(REPLICATION_FACTOR));
                if (!options.isEmpty()) throw unrecognized(options.keySet().iterator().next(), "SimpleStrategy", keyspace);
                out.put(REPLICATION_FACTOR, factor);
            }
            case "NetworkTopologyStrategy" -> out.putAll(networkTopology(options, previous, keyspace, dataCenters));
            case "LocalStrategy" -> throw new InvalidRequestException("Unable to use given strategy class: LocalStrategy is reserved for internal use.");
            case "OldNetworkTopologyStrategy" -> throw new ConfigurationException("The support for the OldNetworkTopologyStrategy has been removed in "
                    + "C* version 4.0. The keyspace strategy should be switch to NetworkTopologyStrategy");
            default -> throw new ConfigurationException("Unable to find replication strategy class '" + qualified + "'");
        }
        return out;
    }

    /**
     * NetworkTopologyStrategy's factor per data center, as Cassandra prepares them: {@code replication_factor} is
     * given to every data center not named, but never changes one the keyspace already has; no option at all keeps
     * the current factors (or takes SimpleStrategy's, or the default for a new keyspace); data centers with factor 0
     * are left out, and at least one must remain.
     */
    private static Map<String, String> networkTopology(Map<String, String> options, Map<String, String> previous, String keyspace,
            Set<String> dataCenters) {
        String factor = options.remove(REPLICATION_FACTOR);
        if (factor == null && options.isEmpty()) {
            factor = previous.get(REPLICATION_FACTOR);
            if (factor == null && !previous.isEmpty()) options.putAll(previous);
            else if (factor == null) factor = DEFAULT_REPLICATION_FACTOR;
        } else if (factor != null) {
            previous.forEach((dc, n) -> {
                if (!dc.equals(REPLICATION_FACTOR)) options.putIfAbsent(dc, n);
            });
        }
        if (factor != null) {
            count(factor);
            for (String dc : dataCenters) options.putIfAbsent(dc, factor);
        }
        options.values().removeIf("0"::equals);
        Map<String, String> out = new LinkedHashMap<>();
        options.forEach((dc, n) -> out.put(dc, factor(n)));
        for (String dc : out.keySet()) if (!dataCenters.contains(dc)) throw unrecognized(dc, "NetworkTopologyStrategy", keyspace);
        if (out.isEmpty()) throw new ConfigurationException("Configuration for at least one datacenter must be present");
        return out;
    }

    private static ConfigurationException unrecognized(String option, String strategy, String keyspace) {
        return new ConfigurationException("Unrecognized strategy option {" + option + "} passed to " + strategy + " for keyspace " + keyspace);
    }

    /** A replication factor's text, checked as Cassandra checks it (transient replicas, {@code 3/1}, are off). */
    private static String factor(String value) {
        if (value.contains("/")) {
            for (String part : value.split("/")) count(part);
            throw new ConfigurationException("Transient replication is not enabled on this node");
        }
        int n = count(value);
        if (n < 0) throw new ConfigurationException("Replication factor must be non-negative, found " + value);
        return Integer.toString(n);
    }

    private static int count(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(e.getMessage());
        }
    }
}

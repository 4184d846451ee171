package ballot.cql.statement;

import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.parse.Properties;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.KeyspaceMetadata;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** CREATE, ALTER and DROP KEYSPACE. */
final class KeyspaceStatements {
    private static final String LOCATOR = "org.apache.cassandra.locator.";

    private KeyspaceStatements() {}

    static SchemaStatement create(Statement.CreateKeyspace s, Set<String> dataCenters) {
        SchemaStatement.checkName(s.name(), "Keyspace", SchemaStatement.KEYSPACE_NAME_MAX);
        // Creating one is invalid, as in Cassandra; altering or dropping one is unauthorized (checkUserKeyspace).
        if (SchemaStatement.SYSTEM_KEYSPACES.contains(s.name()))
            throw new InvalidRequestException("System keyspace '" + s.name() + "' is not user-modifiable");
        Options options = options(s.properties(), true, dataCenters);
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                if (current.containsKey(s.name())) {
                    if (s.ifNotExists()) return current;
                    throw new AlreadyExistsException(s.name(), "");
                }
                return with(current, new KeyspaceMetadata(s.name(), options.replication(),
                        options.durableWrites() == null || options.durableWrites(), Map.of(), Map.of()));
            }

            SchemaChange change() {
                return SchemaChange.keyspace(SchemaChange.Change.CREATED, s.name());
            }
        };
    }

    static SchemaStatement alter(Statement.AlterKeyspace s, Set<String> dataCenters) {
        if (!SchemaStatement.REPLICATION_ALTERABLE_KEYSPACES.contains(s.name())) SchemaStatement.checkUserKeyspace(s.name());
        Options options = options(s.properties(), false, dataCenters);
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = current.get(s.name());
                if (ks == null) {
                    if (s.ifExists()) return current;
                    throw new InvalidRequestException("Keyspace '" + s.name() + "' doesn't exist");
                }
                Map<String, String> replication = options.replication() != null ? options.replication() : ks.replication();
                boolean durable = options.durableWrites() != null ? options.durableWrites() : ks.durableWrites();
                return with(current, ks.withReplication(replication, durable));
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

    private record Options(Map<String, String> replication, Boolean durableWrites) {}

    private static Options options(Properties properties, boolean create, Set<String> dataCenters) {
        Map<String, String> replication = null;
        Boolean durableWrites = null;
        for (Map.Entry<String, Object> e : properties.values().entrySet()) {
            switch (e.getKey()) {
                case "replication" -> {
                    if (!(e.getValue() instanceof Map<?, ?> map)) throw new SyntaxException("Invalid value for property 'replication': expected a map");
                    @SuppressWarnings("unchecked")
                    Map<String, String> raw = (Map<String, String>) map;
                    replication = replication(raw, dataCenters);
                }
                case "durable_writes" -> {
                    String v = e.getValue().toString().toLowerCase(Locale.ROOT);
                    if (!v.equals("true") && !v.equals("false")) throw new SyntaxException("Invalid boolean value " + e.getValue() + " for 'durable_writes'");
                    durableWrites = Boolean.parseBoolean(v);
                }
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

    /** Validates replication options and normalises them as Cassandra stores them (fully qualified class name). */
    static Map<String, String> replication(Map<String, String> raw, Set<String> dataCenters) {
        String cls = raw.get("class");
        if (cls == null) throw new ConfigurationException("Missing replication strategy class");
        String simple = cls.startsWith(LOCATOR) ? cls.substring(LOCATOR.length()) : cls;
        Map<String, String> out = new LinkedHashMap<>();
        switch (simple) {
            case "SimpleStrategy" -> {
                out.put("class", LOCATOR + "SimpleStrategy");
                for (Map.Entry<String, String> e : raw.entrySet()) {
                    if (e.getKey().equals("class")) continue;
                    if (!e.getKey().equals("replication_factor")) {
                        throw new ConfigurationException("Unrecognized strategy option {" + e.getKey() + "} passed to SimpleStrategy");
                    }
                    out.put("replication_factor", factor(e.getValue()));
                }
                out.putIfAbsent("replication_factor", DEFAULT_REPLICATION_FACTOR);
            }
            case "NetworkTopologyStrategy" -> {
                out.put("class", LOCATOR + "NetworkTopologyStrategy");
                String defaultFactor = raw.get("replication_factor");
                if (defaultFactor == null && raw.size() == 1) defaultFactor = DEFAULT_REPLICATION_FACTOR; // no option but the class
                if (defaultFactor != null) for (String dc : dataCenters) out.put(dc, factor(defaultFactor));
                for (Map.Entry<String, String> e : raw.entrySet()) {
                    if (e.getKey().equals("class") || e.getKey().equals("replication_factor")) continue;
                    if (!dataCenters.contains(e.getKey())) {
                        throw new ConfigurationException("Unrecognized strategy option {" + e.getKey()
                                + "} passed to NetworkTopologyStrategy for keyspace; known data centers: " + dataCenters);
                    }
                    out.put(e.getKey(), factor(e.getValue()));
                }
            }
            case "LocalStrategy", "EverywhereStrategy" ->
                    throw new ConfigurationException("Unable to use given strategy class: " + simple + " is reserved for internal use.");
            default -> throw new ConfigurationException("Unable to find replication strategy class '" + cls + "'");
        }
        return out;
    }

    private static String factor(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 0) throw new ConfigurationException("Replication factor must be non-negative; found " + value);
            return Integer.toString(n);
        } catch (NumberFormatException e) {
            throw new ConfigurationException("Replication factor must be numeric; found " + value);
        }
    }
}

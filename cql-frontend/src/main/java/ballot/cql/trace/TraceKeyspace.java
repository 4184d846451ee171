package ballot.cql.trace;

import java.util.Map;

/**
 * The system_traces keyspace as in Cassandra 5.0 ({@code TraceKeyspace}): replicated (SimpleStrategy, RF 2), so that
 * any node can read a session whichever node coordinated it; rows expire after {@code tracetype_query_ttl}.
 */
public final class TraceKeyspace {
    public static final String NAME = "system_traces";
    public static final String SESSIONS = "sessions";
    public static final String EVENTS = "events";
    public static final Map<String, String> REPLICATION =
            Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", "2");

    public static final String CREATE_SESSIONS = """
            CREATE TABLE sessions (session_id uuid, command text, client inet, coordinator inet, coordinator_port int,
              duration int, parameters map<text, text>, request text, started_at timestamp, PRIMARY KEY ((session_id)))""";
    public static final String CREATE_EVENTS = """
            CREATE TABLE events (session_id uuid, event_id timeuuid, activity text, source inet, source_port int,
              source_elapsed int, thread text, PRIMARY KEY ((session_id), event_id))""";

    private TraceKeyspace() {}
}

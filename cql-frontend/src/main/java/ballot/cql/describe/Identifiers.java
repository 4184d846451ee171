package ballot.cql.describe;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Names as DESCRIBE prints them: bare when CQL would read them back unchanged (a lower-case word that is not a
 * reserved keyword), otherwise double-quoted with inner quotes doubled (Cassandra's {@code ColumnIdentifier.maybeQuote}).
 * The same rule lives package-private in {@code ballot.cql.type}; DESCRIBE keeps its own copy so that it depends on
 * that package's public surface only.
 */
final class Identifiers {
    private static final Pattern BARE = Pattern.compile("[a-z][a-z0-9_]*");

    /** Cassandra 5.0's reserved keywords (cql3/reserved_keywords.txt). */
    private static final Set<String> RESERVED = Set.of(
            "ADD", "ALLOW", "ALTER", "AND", "APPLY", "ASC", "AUTHORIZE", "BATCH", "BEGIN", "BY", "COLUMNFAMILY",
            "CREATE", "DELETE", "DESC", "DESCRIBE", "DROP", "ENTRIES", "EXECUTE", "FROM", "FULL", "GRANT", "IF", "IN",
            "INDEX", "INFINITY", "INSERT", "INTO", "IS", "KEYSPACE", "LIMIT", "MATERIALIZED", "MODIFY", "NAN",
            "NORECURSIVE", "NOT", "NULL", "OF", "ON", "OR", "ORDER", "PRIMARY", "RENAME", "REVOKE", "SCHEMA", "SELECT",
            "SET", "TABLE", "TO", "TOKEN", "TRUNCATE", "UNLOGGED", "UPDATE", "USE", "USING", "VIEW", "WHERE", "WITH");

    private Identifiers() {}

    static String maybeQuote(String name) {
        if (BARE.matcher(name).matches() && !RESERVED.contains(name.toUpperCase(Locale.ROOT))) return name;
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** {@code keyspace.name}, each part quoted if needed. */
    static String qualified(String keyspace, String name) {
        return maybeQuote(keyspace) + "." + maybeQuote(name);
    }
}

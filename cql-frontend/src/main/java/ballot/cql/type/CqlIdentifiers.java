package ballot.cql.type;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Prints names the way Cassandra's {@code ColumnIdentifier.maybeQuote} does. */
public final class CqlIdentifiers {
    private static final Pattern UNQUOTED = Pattern.compile("[a-z][a-z0-9_]*");

    /** Cassandra 5.0's reserved keywords (cql3/reserved_keywords.txt): these must be quoted even when lower case. */
    private static final Set<String> RESERVED = Set.of(
            "ADD", "ALLOW", "ALTER", "AND", "APPLY", "ASC", "AUTHORIZE", "BATCH", "BEGIN", "BY", "COLUMNFAMILY",
            "CREATE", "DELETE", "DESC", "DESCRIBE", "DROP", "ENTRIES", "EXECUTE", "FROM", "FULL", "GRANT", "IF", "IN",
            "INDEX", "INFINITY", "INSERT", "INTO", "IS", "KEYSPACE", "LIMIT", "MATERIALIZED", "MODIFY", "NAN",
            "NORECURSIVE", "NOT", "NULL", "OF", "ON", "OR", "ORDER", "PRIMARY", "RENAME", "REVOKE", "SCHEMA", "SELECT",
            "SET", "TABLE", "TO", "TOKEN", "TRUNCATE", "UNLOGGED", "UPDATE", "USE", "USING", "VIEW", "WHERE", "WITH");

    private CqlIdentifiers() {}

    public static String maybeQuote(String name) {
        if (UNQUOTED.matcher(name).matches() && !isReserved(name))
            return name;
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static boolean isReserved(String word) {
        return RESERVED.contains(word.toUpperCase(Locale.ROOT));
    }
}

package ballot.cql.access;

import java.util.Locale;

/**
 * What a role may be granted on a resource, in Cassandra 5.0's order (which LIST PERMISSIONS sorts by). Ballot has
 * Cassandra's data and role permissions; EXECUTE (functions), UNMASK and SELECT_MASKED (data masking) are not built.
 */
public enum Permission {
    CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE;

    /** The permission named {@code name}, in any case; null if there is none of that name. */
    public static Permission named(String name) {
        for (Permission p : values()) if (p.name().equals(name.toUpperCase(Locale.ROOT))) return p;
        return null;
    }
}

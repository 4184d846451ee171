package ballot.cql.spi;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The roles of system_auth.roles, as the role statements read and write them (Cassandra's {@code IRoleManager}).
 * Calls block on storage: they are made from request threads only.
 */
public interface Roles {
    /**
     * One row of system_auth.roles. {@code saltedHash} is the bcrypt hash of the role's password, or null for a role
     * without one (it cannot log in with a password).
     */
    record Role(String name, boolean superuser, boolean login, Set<String> memberOf, String saltedHash) {
        public Role {
            memberOf = Set.copyOf(memberOf);
        }
    }

    /** Whether roles may carry a password: only with PasswordAuthenticator, as in Cassandra. */
    boolean supportsPasswords();

    /** The role as stored now (read past the cache), or null if there is none. */
    Role find(String name);

    /** Every role, in no particular order. */
    List<Role> all();

    /** Writes {@code role}'s login, superuser status and hash; its memberships are kept as stored. */
    void save(Role role);

    /** Drops the role and every membership it is in, either way. */
    void drop(String name);

    /** Makes {@code member} a member of {@code role}: it holds {@code role} (GRANT role TO member). */
    void grant(String role, String member);

    /** Undoes {@link #grant} (REVOKE role FROM member). */
    void revoke(String role, String member);

    /** A fresh salted hash of {@code password}, for {@link Role#saltedHash}. */
    String hash(String password);

    /**
     * The role {@code name} and every role granted to it, directly or through others, in name order; empty if there
     * is no such role. Roles dropped meanwhile are left out.
     */
    default List<Role> held(String name) {
        return held(name, this::find);
    }

    /** {@link #held}, with each role looked up by {@code lookup} (the login cache, for the checks of every request). */
    static List<Role> held(String name, Function<String, Role> lookup) {
        Map<String, Role> found = new TreeMap<>();
        Deque<String> next = new ArrayDeque<>(List.of(name));
        while (!next.isEmpty()) {
            String n = next.poll();
            if (found.containsKey(n)) continue;
            Role r = lookup.apply(n);
            if (r == null) continue;
            found.put(n, r);
            next.addAll(r.memberOf());
        }
        return new ArrayList<>(found.values());
    }

    /** Whether {@code name} is a superuser: it is one, or holds one (Cassandra's {@code Roles.hasSuperuserStatus}). */
    default boolean isSuperuser(String name) {
        for (Role held : held(name)) if (held.superuser()) return true;
        return false;
    }
}

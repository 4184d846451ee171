package ballot.cql.auth;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.Rows;
import ballot.cql.spi.Roles;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.QueryEnvironment;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The roles, kept in system_auth.roles and read and written as ordinary CQL through the node's coordinator, so they
 * are replicated as the keyspace says. As in Cassandra, the default superuser is read and written at QUORUM, every
 * other role at LOCAL_ONE, and listing all roles at QUORUM.
 *
 * <p>Logins read through a cache: a role is looked up at most once per {@code validity} on this node, so a change
 * made on another node is seen here within that time; a change made here invalidates this node's entry at once.
 */
public final class RoleStore implements Roles {
    public static final String DEFAULT_SUPERUSER = "cassandra";
    private static final String COLUMNS = "role, is_superuser, can_login, member_of, salted_hash";
    private static final String INSERT = "INSERT INTO system_auth.roles (role, is_superuser, can_login, salted_hash) VALUES (?, ?, ?, ?)";

    private final AuthQueries queries;
    private final boolean supportsPasswords;
    private final CqlStatement selectOne;
    private final CqlStatement selectAll;
    private final CqlStatement insert;
    private final CqlStatement insertDefault;
    private final CqlStatement delete;
    private final CqlStatement addMembership;
    private final CqlStatement removeMembership;
    private final CqlStatement insertMember;
    private final CqlStatement deleteMember;
    private final CqlStatement selectMembers;
    private final CqlStatement deleteMembers;
    private final LoadingCache<String, Optional<Role>> cache;

    /**
     * @param supportsPasswords whether the node authenticates with passwords (PasswordAuthenticator)
     * @param validity how long a cached role is used ({@code roles_validity_in_ms}); zero: no cache
     */
    public RoleStore(QueryEnvironment environment, boolean supportsPasswords, Duration validity) {
        this.queries = new AuthQueries(environment);
        this.supportsPasswords = supportsPasswords;
        this.selectOne = queries.prepare("SELECT " + COLUMNS + " FROM system_auth.roles WHERE role = ?");
        this.selectAll = queries.prepare("SELECT " + COLUMNS + " FROM system_auth.roles");
        this.insert = queries.prepare(INSERT);
        // Timestamp 0: nodes that create the default superuser at once write the same cells, and any later change of
        // the role (a new password, DROP ROLE) wins over this write, whenever a late node makes it.
        this.insertDefault = queries.prepare(INSERT + " USING TIMESTAMP 0");
        this.delete = queries.prepare("DELETE FROM system_auth.roles WHERE role = ?");
        // A membership is kept twice, as in Cassandra: in the member's member_of, and in role_members under the role
        // granted, so that dropping that role finds its members without a scan.
        this.addMembership = queries.prepare("UPDATE system_auth.roles SET member_of = member_of + ? WHERE role = ?");
        this.removeMembership = queries.prepare("UPDATE system_auth.roles SET member_of = member_of - ? WHERE role = ?");
        this.insertMember = queries.prepare("INSERT INTO system_auth.role_members (role, member) VALUES (?, ?)");
        this.deleteMember = queries.prepare("DELETE FROM system_auth.role_members WHERE role = ? AND member = ?");
        this.selectMembers = queries.prepare("SELECT member FROM system_auth.role_members WHERE role = ?");
        this.deleteMembers = queries.prepare("DELETE FROM system_auth.role_members WHERE role = ?");
        this.cache = Caffeine.newBuilder().expireAfterWrite(validity).build(name -> Optional.ofNullable(find(name)));
    }

    @Override
    public boolean supportsPasswords() {
        return supportsPasswords;
    }

    /** The role for a login: from the cache, or read and cached. Null if there is none. */
    public Role cached(String name) {
        return cache.get(name).orElse(null);
    }

    @Override
    public Role find(String name) {
        Rows rows = (Rows) queries.run(selectOne, consistencyFor(name), name);
        return rows.rows().isEmpty() ? null : role(rows.rows().get(0));
    }

    @Override
    public List<Role> all() {
        Rows rows = (Rows) queries.run(selectAll, ConsistencyLevel.QUORUM);
        List<Role> roles = new ArrayList<>(rows.rows().size());
        for (ByteBuffer[] row : rows.rows()) roles.add(role(row));
        return roles;
    }

    @Override
    public void save(Role role) {
        queries.run(insert, consistencyFor(role.name()), role.name(), role.superuser(), role.login(), role.saltedHash());
        cache.invalidate(role.name());
    }

    @Override
    public void drop(String name) {
        Role role = find(name);
        Rows members = (Rows) queries.run(selectMembers, consistencyFor(name), name);
        for (ByteBuffer[] row : members.rows()) {
            String member = (String) AuthQueries.column(selectMembers, row, 0);
            queries.run(removeMembership, consistencyFor(member), Set.of(name), member);
            cache.invalidate(member);
        }
        queries.run(deleteMembers, consistencyFor(name), name);
        if (role != null) for (String granted : role.memberOf()) queries.run(deleteMember, consistencyFor(granted), granted, name);
        queries.run(delete, consistencyFor(name), name);
        cache.invalidate(name);
    }

    @Override
    public void grant(String role, String member) {
        queries.run(addMembership, consistencyFor(member), Set.of(role), member);
        queries.run(insertMember, consistencyFor(role), role, member);
        cache.invalidate(member);
    }

    @Override
    public void revoke(String role, String member) {
        queries.run(removeMembership, consistencyFor(member), Set.of(role), member);
        queries.run(deleteMember, consistencyFor(role), role, member);
        cache.invalidate(member);
    }

    @Override
    public String hash(String password) {
        return PasswordHash.of(password);
    }

    /** Creates the default superuser, with password "cassandra", unless some role exists (Cassandra's setup). */
    boolean createDefaultSuperuserIfNoRoles() {
        if (find(DEFAULT_SUPERUSER) != null || !all().isEmpty()) return false;
        queries.run(insertDefault, ConsistencyLevel.QUORUM, DEFAULT_SUPERUSER, true, true, hash(DEFAULT_SUPERUSER));
        cache.invalidate(DEFAULT_SUPERUSER);
        return true;
    }

    private static ConsistencyLevel consistencyFor(String role) {
        return role.equals(DEFAULT_SUPERUSER) ? ConsistencyLevel.QUORUM : ConsistencyLevel.LOCAL_ONE;
    }

    private Role role(ByteBuffer[] row) {
        Object memberOf = AuthQueries.column(selectOne, row, 3);
        return new Role((String) AuthQueries.column(selectOne, row, 0), Boolean.TRUE.equals(AuthQueries.column(selectOne, row, 1)),
                Boolean.TRUE.equals(AuthQueries.column(selectOne, row, 2)),
                memberOf == null ? Set.of() : toStrings((Collection<?>) memberOf), (String) AuthQueries.column(selectOne, row, 4));
    }

    private static Set<String> toStrings(Collection<?> values) {
        Set<String> out = new java.util.TreeSet<>();
        for (Object v : values) out.add((String) v);
        return out;
    }
}

package ballot.cql.auth;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.CqlException;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.spi.Roles;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.QueryContext;
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
import java.util.concurrent.CompletionException;

/**
 * The roles, kept in system_auth.roles and read and written as ordinary CQL through the node's coordinator, so they
 * are replicated as the keyspace says. As in Cassandra, the default superuser is read and written at QUORUM, every
 * other role at LOCAL_ONE, and listing all roles at QUORUM.
 *
 * <p>Logins read through a cache: a role is looked up at most once per {@code validity} on this node, so a change
 * made on another node is seen here within that time; a change made here invalidates this node's entry at once.
 */
public final class RoleStore implements Roles {
    private static final String KEYSPACE = "system_auth";
    public static final String DEFAULT_SUPERUSER = "cassandra";
    private static final String COLUMNS = "role, is_superuser, can_login, member_of, salted_hash";
    private static final String INSERT = "INSERT INTO system_auth.roles (role, is_superuser, can_login, salted_hash) VALUES (?, ?, ?, ?)";

    private final QueryEnvironment environment;
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
        this.environment = environment;
        Preparer preparer = Preparer.forAuthTables(environment);
        this.supportsPasswords = supportsPasswords;
        this.selectOne = preparer.prepare("SELECT " + COLUMNS + " FROM system_auth.roles WHERE role = ?", null);
        this.selectAll = preparer.prepare("SELECT " + COLUMNS + " FROM system_auth.roles", null);
        this.insert = preparer.prepare(INSERT, null);
        // Timestamp 0: nodes that create the default superuser at once write the same cells, and any later change of
        // the role (a new password, DROP ROLE) wins over this write, whenever a late node makes it.
        this.insertDefault = preparer.prepare(INSERT + " USING TIMESTAMP 0", null);
        this.delete = preparer.prepare("DELETE FROM system_auth.roles WHERE role = ?", null);
        // A membership is kept twice, as in Cassandra: in the member's member_of, and in role_members under the role
        // granted, so that dropping that role finds its members without a scan.
        this.addMembership = preparer.prepare("UPDATE system_auth.roles SET member_of = member_of + ? WHERE role = ?", null);
        this.removeMembership = preparer.prepare("UPDATE system_auth.roles SET member_of = member_of - ? WHERE role = ?", null);
        this.insertMember = preparer.prepare("INSERT INTO system_auth.role_members (role, member) VALUES (?, ?)", null);
        this.deleteMember = preparer.prepare("DELETE FROM system_auth.role_members WHERE role = ? AND member = ?", null);
        this.selectMembers = preparer.prepare("SELECT member FROM system_auth.role_members WHERE role = ?", null);
        this.deleteMembers = preparer.prepare("DELETE FROM system_auth.role_members WHERE role = ?", null);
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
        Rows rows = (Rows) run(selectOne, consistencyFor(name), name);
        return rows.rows().isEmpty() ? null : role(rows.rows().get(0));
    }

    @Override
    public List<Role> all() {
        Rows rows = (Rows) run(selectAll, ConsistencyLevel.QUORUM);
        List<Role> roles = new ArrayList<>(rows.rows().size());
        for (ByteBuffer[] row : rows.rows()) roles.add(role(row));
        return roles;
    }

    @Override
    public void save(Role role) {
        run(insert, consistencyFor(role.name()), role.name(), role.superuser(), role.login(), role.saltedHash());
        cache.invalidate(role.name());
    }

    @Override
    public void drop(String name) {
        Role role = find(name);
        Rows members = (Rows) run(selectMembers, consistencyFor(name), name);
        for (ByteBuffer[] row : members.rows()) {
            String member = (String) selectMembers.resultMetadata().columns().get(0).type().compose(row[0].duplicate());
            run(removeMembership, consistencyFor(member), Set.of(name), member);
            cache.invalidate(member);
        }
        run(deleteMembers, consistencyFor(name), name);
        if (role != null) for (String granted : role.memberOf()) run(deleteMember, consistencyFor(granted), granted, name);
        run(delete, consistencyFor(name), name);
        cache.invalidate(name);
    }

    @Override
    public void grant(String role, String member) {
        run(addMembership, consistencyFor(member), Set.of(role), member);
        run(insertMember, consistencyFor(role), role, member);
        cache.invalidate(member);
    }

    @Override
    public void revoke(String role, String member) {
        run(removeMembership, consistencyFor(member), Set.of(role), member);
        run(deleteMember, consistencyFor(role), role, member);
        cache.invalidate(member);
    }

    @Override
    public String hash(String password) {
        return PasswordHash.of(password);
    }

    /** Creates the default superuser, with password "cassandra", unless some role exists (Cassandra's setup). */
    boolean createDefaultSuperuserIfNoRoles() {
        if (find(DEFAULT_SUPERUSER) != null || !all().isEmpty()) return false;
        run(insertDefault, ConsistencyLevel.QUORUM, DEFAULT_SUPERUSER, true, true, hash(DEFAULT_SUPERUSER));
        cache.invalidate(DEFAULT_SUPERUSER);
        return true;
    }

    private static ConsistencyLevel consistencyFor(String role) {
        return role.equals(DEFAULT_SUPERUSER) ? ConsistencyLevel.QUORUM : ConsistencyLevel.LOCAL_ONE;
    }

    /** Runs an internal statement; a CQL error (Unavailable, a timeout) is thrown as itself. */
    private Result run(CqlStatement statement, ConsistencyLevel consistency, Object... values) {
        List<ByteBuffer> bound = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++)
            bound.add(values[i] == null ? null : statement.variables().get(i).type().decompose(values[i]));
        try {
            return statement.execute(QueryContext.of(environment, KEYSPACE, QueryOptions.of(consistency, bound), statement)).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof CqlException cql) throw cql;
            throw e;
        }
    }

    private Role role(ByteBuffer[] row) {
        List<ColumnSpec> columns = selectOne.resultMetadata().columns();
        Object memberOf = compose(columns, row, 3);
        return new Role((String) compose(columns, row, 0), Boolean.TRUE.equals(compose(columns, row, 1)),
                Boolean.TRUE.equals(compose(columns, row, 2)), memberOf == null ? Set.of() : toStrings((Collection<?>) memberOf),
                (String) compose(columns, row, 4));
    }

    private static Object compose(List<ColumnSpec> columns, ByteBuffer[] row, int i) {
        return row[i] == null ? null : columns.get(i).type().compose(row[i].duplicate());
    }

    private static Set<String> toStrings(Collection<?> values) {
        Set<String> out = new java.util.TreeSet<>();
        for (Object v : values) out.add((String) v);
        return out;
    }
}

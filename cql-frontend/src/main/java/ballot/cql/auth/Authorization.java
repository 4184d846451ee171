package ballot.cql.auth;

import ballot.cql.access.Access;
import ballot.cql.access.DataResource;
import ballot.cql.access.Permission;
import ballot.cql.access.RoleResource;
import ballot.cql.error.UnauthorizedException;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.Roles;
import ballot.cql.spi.Roles.Role;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Whether a client's role may run a statement, given what the statement needs ({@link
 * ballot.cql.statement.StatementAccess}): the one place permissions are checked. The query processor asks it before
 * every execution of every QUERY, EXECUTE and BATCH, so a REVOKE applies to statements prepared before it. The rules,
 * in order (docs/security.md, "Authorization"):
 *
 * <ol>
 *   <li>an anonymous client (AllowAllAuthenticator) may do everything, as in Cassandra;
 *   <li>a superuser (a role that is one, or holds one) may do everything;
 *   <li>system_auth's keyspace and tables (roles, password hashes, permissions) are for superusers only, whatever the
 *       authorizer: others may neither read them nor alter the keyspace (writes are refused to all when prepared);
 *   <li>with AllowAllAuthorizer, nothing else is checked, but managing roles (CREATE, DROP and GRANT of a role): only
 *       superusers may, as Cassandra with no permission granted on roles;
 *   <li>the tables drivers read to connect (system.local, peers, peers_v2, system_schema, system_virtual_schema) may
 *       be read by every role, as Cassandra's always-readable resources;
 *   <li>otherwise the permission must be granted on the resource or one above it, to the role or one it holds
 *       ({@link Permissions#holds}).
 * </ol>
 *
 * <p>It also keeps the grants in step with the schema, as Cassandra does: the creator of a keyspace or table gets all
 * permissions on it, and dropping one forgets every permission on it (the role statements do the same for roles).
 */
public final class Authorization {
    private static final String AUTH_KEYSPACE = "system_auth";
    private static final Set<String> READABLE_KEYSPACES = Set.of("system_schema", "system_virtual_schema");
    private static final Set<DataResource> READABLE_TABLES = Set.of(DataResource.table("system", "local"),
            DataResource.table("system", "peers"), DataResource.table("system", "peers_v2"));

    private final Function<String, Role> roles;
    private final Permissions permissions;

    /** @param roles looks a role up for the checks (through the login cache) */
    public Authorization(Function<String, Role> roles, Permissions permissions) {
        this.roles = roles;
        this.permissions = permissions;
    }

    /** Refuses {@code role} (null: anonymous) with Cassandra's UNAUTHORIZED if it lacks one of {@code needed}. */
    public void check(String role, List<Access> needed) {
        if (role == null || needed.isEmpty()) return;
        if (!permissions.enabled() && needed.stream().noneMatch(Authorization::isSuperusersOnlyWithoutGrants)) return;
        List<Role> held = Roles.held(role, roles);
        for (Role r : held) if (r.superuser()) return;
        for (Access access : needed) {
            if (isAuthKeyspace(access)) throw UnauthorizedException.missing(role, access.permission(), access.resource());
            boolean allowed = permissions.enabled() ? isAlwaysReadable(access) || permissions.holds(held, access)
                    : !isSuperusersOnlyWithoutGrants(access);
            if (!allowed) throw UnauthorizedException.missing(role, access.permission(), access.resource());
        }
    }

    /**
     * Whether {@link #check} may read storage for {@code role} (a role or permission not cached): then the check must
     * not run on a connection's event loop.
     */
    public boolean mayWait(String role) {
        return role != null && permissions.enabled();
    }

    /**
     * After {@code role} (null: anonymous) changed the schema: the creator of a keyspace or table is granted every
     * permission that applies to it; a dropped keyspace or table takes its grants (and those of its tables) with it.
     */
    public void schemaChanged(String role, SchemaChange change) {
        if (!permissions.enabled()) return;
        DataResource resource = switch (change.target()) {
            case KEYSPACE -> DataResource.keyspace(change.keyspace());
            case TABLE -> DataResource.table(change.keyspace(), change.name());
            default -> null;
        };
        if (resource == null) return;
        if (change.change() == SchemaChange.Change.CREATED) permissions.grantToCreator(role, resource);
        if (change.change() == SchemaChange.Change.DROPPED) permissions.revokeAllOn(resource);
    }

    /**
     * What only a superuser may do where nothing can be granted (AllowAllAuthorizer): manage roles, as Cassandra with
     * no permission granted on roles, and use system_auth.
     */
    private static boolean isSuperusersOnlyWithoutGrants(Access access) {
        return access.resource() instanceof RoleResource || isAuthKeyspace(access);
    }

    private static boolean isAuthKeyspace(Access access) {
        return access.resource() instanceof DataResource data && AUTH_KEYSPACE.equals(data.keyspace());
    }

    private static boolean isAlwaysReadable(Access access) {
        if (access.permission() != Permission.SELECT || !(access.resource() instanceof DataResource resource)) return false;
        return READABLE_TABLES.contains(resource) || resource.isTable() && READABLE_KEYSPACES.contains(resource.keyspace());
    }
}

package ballot.cql.spi;

import ballot.cql.access.Access;
import ballot.cql.access.Resource;
import ballot.cql.access.Permission;
import java.util.List;
import java.util.Set;

/**
 * The permissions granted to roles, as CassandraAuthorizer keeps them in system_auth.role_permissions (Cassandra's
 * {@code IAuthorizer}). With AllowAllAuthorizer there are none ({@link #ALLOW_ALL}): nothing is checked, and GRANT,
 * REVOKE and LIST PERMISSIONS are refused. Calls block on storage: they are made from request threads only.
 */
public interface Permissions {
    /** One permission granted to one role on one resource: a row of LIST PERMISSIONS. */
    record Grant(String role, Resource resource, Permission permission) {}

    /** Whether permissions are granted and checked (CassandraAuthorizer). */
    boolean enabled();

    /** The authorizer's name, for the errors of statements it does not support. */
    String authorizer();

    /** The permissions granted to {@code role} itself (not through the roles it holds) on exactly {@code resource}. */
    Set<Permission> granted(String role, Resource resource);

    /**
     * Whether one of the roles {@code held} (a role and those it holds, {@link Roles#held}) was granted {@code access}'s
     * permission on its resource or one above it: the rule of inheritance, through roles and through resources.
     */
    default boolean holds(List<Roles.Role> held, Access access) {
        for (Roles.Role r : held)
            for (Resource resource : access.resource().chain())
                if (granted(r.name(), resource).contains(access.permission())) return true;
        return false;
    }

    void grant(String role, Resource resource, Set<Permission> permissions);

    void revoke(String role, Resource resource, Set<Permission> permissions);

    /** Every permission granted to {@code role} itself, or to every role if {@code role} is null, in no particular order. */
    List<Grant> list(String role);

    /**
     * Grants {@code creator} (null: anonymous, who is granted nothing) every permission that applies to what it just
     * created, as Cassandra does for keyspaces, tables and roles.
     */
    default void grantToCreator(String creator, Resource resource) {
        if (enabled() && creator != null) grant(creator, resource, resource.applicablePermissions());
    }

    /** Forgets every permission granted to {@code role} (DROP ROLE). */
    void revokeAllFrom(String role);

    /** Forgets every permission granted on {@code resource} and on what lies below it (DROP KEYSPACE, TABLE, ROLE). */
    void revokeAllOn(Resource resource);

    /** AllowAllAuthorizer: every role may do everything, and no permission is kept. */
    Permissions ALLOW_ALL = new Permissions() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public String authorizer() {
            return "AllowAllAuthorizer";
        }

        @Override
        public Set<Permission> granted(String role, Resource resource) {
            throw new IllegalStateException("AllowAllAuthorizer checks no permission");
        }

        @Override
        public void grant(String role, Resource resource, Set<Permission> permissions) {
            throw new IllegalStateException("AllowAllAuthorizer grants no permission");
        }

        @Override
        public void revoke(String role, Resource resource, Set<Permission> permissions) {
            throw new IllegalStateException("AllowAllAuthorizer revokes no permission");
        }

        @Override
        public List<Grant> list(String role) {
            throw new IllegalStateException("AllowAllAuthorizer lists no permission");
        }

        @Override
        public void revokeAllFrom(String role) {}

        @Override
        public void revokeAllOn(Resource resource) {}
    };
}

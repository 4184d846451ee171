package ballot.cql.access;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * All roles ({@code role} null) or one role, as in Cassandra: stored as {@code roles} and {@code roles/r}, printed as
 * {@code <all roles>} and {@code <role r>}. CREATE and DESCRIBE (listing roles and their permissions) mean something
 * on all roles only; ALTER, DROP and AUTHORIZE (granting the role) on both.
 */
public record RoleResource(String role) implements Resource {
    static final String ROOT_NAME = "roles";
    public static final RoleResource ALL_ROLES = new RoleResource(null);
    private static final Set<Permission> ROOT_PERMISSIONS = Collections.unmodifiableSet(EnumSet.of(Permission.CREATE, Permission.ALTER,
            Permission.DROP, Permission.AUTHORIZE, Permission.DESCRIBE));
    private static final Set<Permission> ROLE_PERMISSIONS = Collections.unmodifiableSet(EnumSet.of(Permission.ALTER, Permission.DROP,
            Permission.AUTHORIZE));

    public static RoleResource of(String role) {
        return new RoleResource(role);
    }

    /** The resource stored as {@code name} ({@link #name}); IllegalArgumentException for anything else. */
    public static RoleResource fromName(String name) {
        if (name.equals(ROOT_NAME)) return ALL_ROLES;
        if (name.startsWith(ROOT_NAME + "/") && name.length() > ROOT_NAME.length() + 1) return new RoleResource(name.substring(ROOT_NAME.length() + 1));
        throw new IllegalArgumentException("not a role resource name: '" + name + "' (expected roles or roles/name)");
    }

    @Override
    public String name() {
        return role == null ? ROOT_NAME : ROOT_NAME + "/" + role;
    }

    @Override
    public RoleResource parent() {
        return role == null ? null : ALL_ROLES;
    }

    @Override
    public Set<Permission> applicablePermissions() {
        return applicablePermissions(role != null);
    }

    /** The permissions that mean something on one role ({@code oneRole}), or on all roles. */
    public static Set<Permission> applicablePermissions(boolean oneRole) {
        return oneRole ? ROLE_PERMISSIONS : ROOT_PERMISSIONS;
    }

    @Override
    public String toString() {
        return role == null ? "<all roles>" : "<role " + role + ">";
    }
}

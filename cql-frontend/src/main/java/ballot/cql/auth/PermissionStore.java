package ballot.cql.auth;

import ballot.cql.ConsistencyLevel;
import ballot.cql.access.Resource;
import ballot.cql.access.Permission;
import ballot.cql.protocol.message.Rows;
import ballot.cql.spi.Permissions;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.QueryEnvironment;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * CassandraAuthorizer's permissions: system_auth.role_permissions (role, resource, permissions set), one partition per
 * role, read and written at LOCAL_ONE as Cassandra does, through the node's coordinator.
 *
 * <p>Every statement's check reads a role's permissions through a cache: at most once per {@code validity}
 * ({@code permissions_validity_in_ms}) on this node. A GRANT, REVOKE or drop made through this node invalidates its
 * entries at once; other nodes see the change within {@code validity}.
 */
public final class PermissionStore implements Permissions {
    private static final ConsistencyLevel CONSISTENCY = ConsistencyLevel.LOCAL_ONE;

    private final AuthQueries queries;
    private final CqlStatement selectRole;
    private final CqlStatement selectAll;
    private final CqlStatement add;
    private final CqlStatement remove;
    private final CqlStatement deleteRole;
    private final CqlStatement deleteResource;
    private final LoadingCache<String, Map<Resource, Set<Permission>>> cache;

    /** @param validity how long a role's cached permissions are used; zero: no cache */
    public PermissionStore(QueryEnvironment environment, Duration validity) {
        this.queries = new AuthQueries(environment);
        this.selectRole = queries.prepare("SELECT role, resource, permissions FROM system_auth.role_permissions WHERE role = ?");
        this.selectAll = queries.prepare("SELECT role, resource, permissions FROM system_auth.role_permissions");
        this.add = queries.prepare("UPDATE system_auth.role_permissions SET permissions = permissions + ? WHERE role = ? AND resource = ?");
        this.remove = queries.prepare("UPDATE system_auth.role_permissions SET permissions = permissions - ? WHERE role = ? AND resource = ?");
        this.deleteRole = queries.prepare("DELETE FROM system_auth.role_permissions WHERE role = ?");
        this.deleteResource = queries.prepare("DELETE FROM system_auth.role_permissions WHERE role = ? AND resource = ?");
        this.cache = Caffeine.newBuilder().expireAfterWrite(validity).build(this::read);
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public String authorizer() {
        return "CassandraAuthorizer";
    }

    @Override
    public Set<Permission> granted(String role, Resource resource) {
        return cache.get(role).getOrDefault(resource, Set.of());
    }

    @Override
    public void grant(String role, Resource resource, Set<Permission> permissions) {
        queries.run(add, CONSISTENCY, names(permissions), role, resource.name());
        cache.invalidate(role);
    }

    @Override
    public void revoke(String role, Resource resource, Set<Permission> permissions) {
        queries.run(remove, CONSISTENCY, names(permissions), role, resource.name());
        cache.invalidate(role);
    }

    @Override
    public List<Grant> list(String role) {
        Rows rows = role == null ? (Rows) queries.run(selectAll, CONSISTENCY) : (Rows) queries.run(selectRole, CONSISTENCY, role);
        List<Grant> grants = new ArrayList<>();
        for (ByteBuffer[] row : rows.rows()) {
            Resource resource = Resource.fromName((String) AuthQueries.column(selectAll, row, 1));
            for (Permission p : permissions(row)) grants.add(new Grant((String) AuthQueries.column(selectAll, row, 0), resource, p));
        }
        return grants;
    }

    @Override
    public void revokeAllFrom(String role) {
        queries.run(deleteRole, CONSISTENCY, role);
        cache.invalidate(role);
    }

    /** Reads every grant (role_permissions is keyed by role): dropping a keyspace or table is rare, the table small. */
    @Override
    public void revokeAllOn(Resource resource) {
        Rows rows = (Rows) queries.run(selectAll, CONSISTENCY);
        for (ByteBuffer[] row : rows.rows()) {
            String role = (String) AuthQueries.column(selectAll, row, 0);
            String name = (String) AuthQueries.column(selectAll, row, 1);
            if (resource.covers(Resource.fromName(name))) {
                queries.run(deleteResource, CONSISTENCY, role, name);
                cache.invalidate(role);
            }
        }
    }

    private Map<Resource, Set<Permission>> read(String role) {
        Map<Resource, Set<Permission>> granted = new HashMap<>();
        for (ByteBuffer[] row : ((Rows) queries.run(selectRole, CONSISTENCY, role)).rows()) {
            Set<Permission> permissions = permissions(row);
            if (!permissions.isEmpty()) granted.put(Resource.fromName((String) AuthQueries.column(selectRole, row, 1)), permissions);
        }
        return granted;
    }

    /** The permissions of a row; a name this node does not know (written by a newer one) is left out. */
    private Set<Permission> permissions(ByteBuffer[] row) {
        Set<Permission> permissions = EnumSet.noneOf(Permission.class);
        Object stored = AuthQueries.column(selectAll, row, 2);
        if (stored == null) return permissions;
        for (Object name : (Collection<?>) stored) {
            Permission p = Permission.named((String) name);
            if (p != null) permissions.add(p);
        }
        return permissions;
    }

    private static Set<String> names(Set<Permission> permissions) {
        Set<String> names = new TreeSet<>();
        for (Permission p : permissions) names.add(p.name());
        return names;
    }
}

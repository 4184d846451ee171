package ballot.cql.statement;

import ballot.cql.access.Access;
import ballot.cql.access.DataResource;
import ballot.cql.access.Permission;
import ballot.cql.access.Resource;
import ballot.cql.access.RoleResource;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.UnauthorizedException;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.Schema;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.Permissions.Grant;
import ballot.cql.spi.Roles;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * GRANT, REVOKE and LIST PERMISSIONS (docs/security.md). Whether the caller may GRANT or REVOKE (AUTHORIZE on the
 * resource, and the permissions it passes on) is checked before they run, with every statement's needs
 * ({@link StatementAccess}); who may LIST is decided here, as Cassandra's ListPermissionsStatement does.
 */
final class PermissionStatements {
    private static final RowsMetadata LIST = RowsMetadata.of(List.of(column("role"), column("username"), column("resource"),
            column("permission")));
    /** LIST's order, as Cassandra's PermissionDetails: role, then resource name, then permission. */
    private static final Comparator<Grant> ORDER = Comparator.comparing(Grant::role)
            .thenComparing(g -> g.resource().name()).thenComparing(Grant::permission);

    private PermissionStatements() {}

    /** A permission statement: no markers; {@code keyspace} is the client's keyspace when it was prepared. */
    private abstract static class PermissionStatement implements CqlStatement {
        @Override
        public CompletableFuture<Result> execute(QueryContext context) {
            QueryContext.Login login = context.login();
            if (login.role() == null) throw UnauthorizedException.anonymous();
            return CompletableFuture.completedFuture(run(login, context.environment().schemas().schema()));
        }

        abstract Result run(QueryContext.Login login, Schema schema);
    }

    static CqlStatement grant(Statement.GrantPermission s, String keyspace) {
        Resource resource = StatementAccess.resource(s.on(), keyspace);
        Set<Permission> permissions = StatementAccess.permissions(s.permission(), resource);
        return new PermissionStatement() {
            Result run(QueryContext.Login login, Schema schema) {
                if (login.roles().find(s.role()) == null) throw new InvalidRequestException("Role " + s.role() + " doesn't exist");
                if (!exists(login.roles(), schema, resource)) throw new InvalidRequestException("Resource " + resource + " doesn't exist");
                Permissions granted = supported(login.permissions(), s.revoke() ? "REVOKE" : "GRANT");
                if (s.revoke()) granted.revoke(s.role(), resource, permissions);
                else granted.grant(s.role(), resource, permissions);
                return new VoidResult();
            }
        };
    }

    static CqlStatement list(Statement.ListPermissions s, String keyspace) {
        Resource on = s.on() == null ? null : StatementAccess.resource(s.on(), keyspace);
        // LIST ALL is every permission, not only those that apply to the resource: LIST ALL ON ks.t shows a CREATE
        // granted on all keyspaces, as Cassandra does.
        Set<Permission> listed = s.permission() == null ? EnumSet.allOf(Permission.class) : EnumSet.of(s.permission());
        return new PermissionStatement() {
            @Override
            public RowsMetadata resultMetadata() {
                return LIST;
            }

            Result run(QueryContext.Login login, Schema schema) {
                Roles roles = login.roles();
                if (on != null && !exists(roles, schema, on)) throw new InvalidRequestException(on + " doesn't exist");
                RoleResource of = s.of() == null ? RoleResource.ALL_ROLES : RoleResource.of(s.of());
                if (s.of() != null && roles.find(s.of()) == null) throw new InvalidRequestException(of + " doesn't exist");
                Permissions permissions = supported(login.permissions(), "LIST PERMISSIONS");
                // A superuser sees all; another role its own and those of roles it holds, and with DESCRIBE on a role
                // (or all roles) that role's (everyone's), as in Cassandra.
                List<Roles.Role> caller = roles.held(login.role());
                boolean allowed = caller.stream().anyMatch(Roles.Role::superuser) || s.of() != null && names(caller).contains(s.of())
                        || permissions.holds(caller, new Access(Permission.DESCRIBE, of));
                if (!allowed) {
                    throw new UnauthorizedException("You are not authorized to view " + (s.of() == null ? "everyone" : s.of())
                            + "'s permissions");
                }
                // OF a role: its own grants and those of every role it holds, as Cassandra lists them.
                List<Resource> resources = on == null ? null : s.recursive() ? on.chain() : List.of(on);
                List<Grant> candidates = new ArrayList<>();
                if (s.of() == null) candidates.addAll(permissions.list(null));
                else for (String role : names(roles.held(s.of()))) candidates.addAll(permissions.list(role));
                Set<Grant> found = new TreeSet<>(ORDER);
                for (Grant g : candidates) {
                    if (resources != null && !resources.contains(g.resource())) continue;
                    if (listed.contains(g.permission())) found.add(g);
                }
                List<ByteBuffer[]> rows = new ArrayList<>(found.size());
                for (Grant g : found) {
                    ByteBuffer role = CqlTypes.TEXT.decompose(g.role());
                    rows.add(new ByteBuffer[] {role, role.duplicate(), CqlTypes.TEXT.decompose(g.resource().toString()),
                            CqlTypes.TEXT.decompose(g.permission().name())});
                }
                return new Rows(LIST, rows);
            }
        };
    }

    /** {@code permissions}, unless the authorizer keeps none (AllowAllAuthorizer), which Cassandra refuses {@code operation} as. */
    private static Permissions supported(Permissions permissions, String operation) {
        if (!permissions.enabled())
            throw new InvalidRequestException(operation + " operation is not supported by " + permissions.authorizer());
        return permissions;
    }

    private static boolean exists(Roles roles, Schema schema, Resource resource) {
        if (resource instanceof RoleResource r) return r.role() == null || roles.find(r.role()) != null;
        DataResource data = (DataResource) resource;
        if (data.keyspace() == null) return true;
        if (data.table() == null) return schema.keyspace(data.keyspace()) != null;
        return schema.table(data.keyspace(), data.table()) != null;
    }

    private static Set<String> names(List<Roles.Role> roles) {
        Set<String> names = new HashSet<>();
        for (Roles.Role r : roles) names.add(r.name());
        return names;
    }

    private static ColumnSpec column(String name) {
        return new ColumnSpec("system_auth", "permissions", name, CqlTypes.TEXT);
    }
}

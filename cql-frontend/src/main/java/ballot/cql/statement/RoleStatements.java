package ballot.cql.statement;

import ballot.cql.access.Access;
import ballot.cql.access.Permission;
import ballot.cql.access.RoleResource;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.UnauthorizedException;
import ballot.cql.parse.RoleOptions;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.Roles;
import ballot.cql.spi.Roles.Role;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * CREATE, ALTER, DROP and LIST ROLES (and their USER forms), GRANT and REVOKE of roles, run as the client's logged-in
 * role (docs/security.md). Who may do what, as in Cassandra: a superuser (a role that is one, or holds one) may do all;
 * any other role may change its own password, list the roles it holds, and do what it was granted on roles (with
 * CassandraAuthorizer; CREATE, DROP and GRANT of a role are checked before they run, with every statement's needs,
 * {@link StatementAccess}); an anonymous client (the node does not authenticate) may do none, as Cassandra refuses it.
 */
final class RoleStatements {
    private static final String ROLE_MANAGER = "org.apache.cassandra.auth.CassandraRoleManager";
    private static final CqlType OPTIONS = CqlTypes.map(CqlTypes.TEXT, CqlTypes.TEXT, false);
    private static final RowsMetadata LIST_ROLES = RowsMetadata.of(List.of(column("roles", "role", CqlTypes.TEXT),
            column("roles", "super", CqlTypes.BOOLEAN), column("roles", "login", CqlTypes.BOOLEAN),
            column("roles", "options", OPTIONS), column("roles", "datacenters", CqlTypes.TEXT)));
    private static final RowsMetadata LIST_USERS = RowsMetadata.of(List.of(column("users", "name", CqlTypes.TEXT),
            column("users", "super", CqlTypes.BOOLEAN), column("users", "datacenters", CqlTypes.TEXT)));
    /** Roles are not restricted to data centers yet: every role may use all of them. */
    private static final ByteBuffer ALL_DATACENTERS = CqlTypes.TEXT.decompose("ALL");

    private RoleStatements() {}

    /** A role statement: no markers, runs once per execution as {@code caller}. */
    private abstract static class RoleStatement implements CqlStatement {
        @Override
        public CompletableFuture<Result> execute(QueryContext context) {
            QueryContext.Login login = context.login();
            return CompletableFuture.completedFuture(run(login, Caller.of(login)));
        }

        abstract Result run(QueryContext.Login session, Caller caller);
    }

    /** The client's role (null for an anonymous client), the roles it holds, and whether it is a superuser. */
    private record Caller(String role, List<Role> held, boolean superuser, Permissions permissions) {
        static Caller of(QueryContext.Login login) {
            if (login.role() == null) return new Caller(null, List.of(), false, login.permissions());
            List<Role> held = login.roles().held(login.role());
            return new Caller(login.role(), held, held.stream().anyMatch(Role::superuser), login.permissions());
        }

        void checkLoggedIn() {
            if (role == null) throw UnauthorizedException.anonymous();
        }

        /** Whether the caller is a superuser or was granted {@code permission} on {@code resource}. */
        boolean holds(Permission permission, RoleResource resource) {
            return superuser || permissions.enabled() && permissions.holds(held, new Access(permission, resource));
        }

        /** Refuses a logged-in role that {@link #holds} not {@code permission} on {@code resource}. */
        void check(Permission permission, RoleResource resource) {
            if (role != null && !holds(permission, resource)) throw UnauthorizedException.missing(role, permission, resource);
        }

        Set<String> heldNames() {
            return names(held);
        }
    }

    static CqlStatement create(Statement.CreateRole s) {
        return new RoleStatement() {
            Result run(QueryContext.Login session, Caller caller) {
                Roles roles = session.roles();
                if (Boolean.TRUE.equals(s.options().superuser()) && caller.role() != null && !caller.superuser())
                    throw new UnauthorizedException("Only superusers can create a role with superuser status");
                checkSupported(roles, s.options());
                checkName(s.name());
                caller.checkLoggedIn();
                if (roles.find(s.name()) != null) {
                    if (s.ifNotExists()) return new VoidResult();
                    throw new InvalidRequestException((s.user() ? "User " : "") + s.name() + " already exists");
                }
                RoleOptions o = s.options();
                boolean login = o.login() != null ? o.login() : s.user();
                roles.save(new Role(s.name(), Boolean.TRUE.equals(o.superuser()), login, Set.of(),
                        o.password() == null ? null : roles.hash(o.password())));
                session.permissions().grantToCreator(caller.role(), RoleResource.of(s.name()));
                return new VoidResult();
            }
        };
    }

    static CqlStatement alter(Statement.AlterRole s) {
        return new RoleStatement() {
            Result run(QueryContext.Login session, Caller caller) {
                Roles roles = session.roles();
                RoleOptions o = s.options();
                if (o.isEmpty()) throw new InvalidRequestException("ALTER [ROLE|USER] can't be empty");
                boolean self = s.name().equals(caller.role());
                if (o.superuser() != null && self)
                    throw new UnauthorizedException("You aren't allowed to alter your own superuser status or that of a role granted to you");
                if (o.superuser() != null && !caller.superuser())
                    throw new UnauthorizedException("Only superusers are allowed to alter superuser status");
                if (caller.role() != null && !caller.superuser()) {
                    // Itself a role may give a new password only; another role, anything it was granted ALTER on.
                    if (!self) caller.check(Permission.ALTER, RoleResource.of(s.name()));
                    else if (o.login() != null) throw new UnauthorizedException("You aren't allowed to alter LOGIN");
                }
                checkSupported(roles, o);
                caller.checkLoggedIn();
                Role current = roles.find(s.name());
                if (current == null) throw new InvalidRequestException((s.user() ? "User " : "") + s.name() + " doesn't exist");
                roles.save(new Role(current.name(), o.superuser() != null ? o.superuser() : current.superuser(),
                        o.login() != null ? o.login() : current.login(), current.memberOf(),
                        o.password() != null ? roles.hash(o.password()) : current.saltedHash()));
                return new VoidResult();
            }
        };
    }

    static CqlStatement drop(Statement.DropRole s) {
        return new RoleStatement() {
            Result run(QueryContext.Login session, Caller caller) {
                Roles roles = session.roles();
                caller.checkLoggedIn();
                if (s.name().equals(caller.role())) throw new InvalidRequestException("Cannot DROP primary role for current login");
                if (roles.find(s.name()) == null) {
                    if (s.ifExists()) return new VoidResult();
                    throw new InvalidRequestException((s.user() ? "User " : "") + s.name() + " doesn't exist");
                }
                if (!caller.superuser() && roles.isSuperuser(s.name()))
                    throw new UnauthorizedException("Only superusers can drop a role with superuser status");
                roles.drop(s.name());
                session.permissions().revokeAllFrom(s.name());
                session.permissions().revokeAllOn(RoleResource.of(s.name()));
                return new VoidResult();
            }
        };
    }

    /** GRANT and REVOKE of a role; AUTHORIZE on the role granted is checked before (Cassandra's rule). */
    static CqlStatement grant(Statement.GrantRole s) {
        return new RoleStatement() {
            Result run(QueryContext.Login session, Caller caller) {
                Roles roles = session.roles();
                caller.checkLoggedIn();
                for (String name : List.of(s.role(), s.member()))
                    if (roles.find(name) == null) throw new InvalidRequestException(name + " doesn't exist");
                if (s.revoke()) {
                    if (!roles.find(s.member()).memberOf().contains(s.role()))
                        throw new InvalidRequestException(s.member() + " is not a member of " + s.role());
                    roles.revoke(s.role(), s.member());
                } else {
                    // No cycles: a role may not come to hold itself.
                    if (names(roles.held(s.member())).contains(s.role()))
                        throw new InvalidRequestException(s.member() + " is a member of " + s.role());
                    if (names(roles.held(s.role())).contains(s.member()))
                        throw new InvalidRequestException(s.role() + " is a member of " + s.member());
                    roles.grant(s.role(), s.member());
                }
                return new VoidResult();
            }
        };
    }

    static CqlStatement list(Statement.ListRoles s) {
        return new RoleStatement() {
            @Override
            public RowsMetadata resultMetadata() {
                return s.users() ? LIST_USERS : LIST_ROLES;
            }

            Result run(QueryContext.Login session, Caller caller) {
                Roles roles = session.roles();
                caller.checkLoggedIn();
                if (s.of() != null && roles.find(s.of()) == null) throw new InvalidRequestException(s.of() + " doesn't exist");
                Set<String> visible = null; // null: all roles
                if (!caller.holds(Permission.DESCRIBE, RoleResource.ALL_ROLES)) {
                    visible = caller.heldNames();
                    if (s.of() != null && !visible.contains(s.of()))
                        throw new UnauthorizedException("You are not authorized to view roles granted to " + s.of());
                }
                List<Role> listed;
                if (s.of() != null) listed = s.recursive() ? roles.held(s.of()) : direct(roles, s.of());
                else listed = roles.all();
                Map<String, Role> sorted = new TreeMap<>();
                for (Role r : listed) if (visible == null || visible.contains(r.name())) sorted.put(r.name(), r);
                List<ByteBuffer[]> rows = new ArrayList<>();
                for (Role r : sorted.values()) {
                    ByteBuffer name = CqlTypes.TEXT.decompose(r.name());
                    ByteBuffer superuser = CqlTypes.BOOLEAN.decompose(roles.isSuperuser(r.name()));
                    if (s.users()) {
                        if (r.login()) rows.add(new ByteBuffer[] {name, superuser, ALL_DATACENTERS.duplicate()});
                    } else {
                        rows.add(new ByteBuffer[] {name, superuser, CqlTypes.BOOLEAN.decompose(r.login()), OPTIONS.decompose(Map.of()),
                                ALL_DATACENTERS.duplicate()});
                    }
                }
                return new Rows(resultMetadata(), rows);
            }
        };
    }

    /** PASSWORD only where roles have passwords, as Cassandra's role manager supports it only with PasswordAuthenticator. */
    private static void checkSupported(Roles roles, RoleOptions options) {
        if (options.password() != null && !roles.supportsPasswords())
            throw new InvalidRequestException(ROLE_MANAGER + " doesn't support PASSWORD");
    }

    private static void checkName(String name) {
        if (name.isEmpty()) throw new InvalidRequestException("Role name can't be an empty string");
    }

    /** {@code name} and the roles granted to it directly (NORECURSIVE). */
    private static List<Role> direct(Roles roles, String name) {
        List<Role> out = new ArrayList<>();
        Role r = roles.find(name);
        if (r == null) return out;
        out.add(r);
        for (String granted : r.memberOf()) {
            Role g = roles.find(granted);
            if (g != null) out.add(g);
        }
        return out;
    }

    private static Set<String> names(List<Role> roles) {
        Set<String> out = new java.util.HashSet<>();
        for (Role r : roles) out.add(r.name());
        return out;
    }

    private static ColumnSpec column(String table, String name, CqlType type) {
        return new ColumnSpec("system_auth", table, name, type);
    }
}

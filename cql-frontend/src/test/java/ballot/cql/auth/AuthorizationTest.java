package ballot.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.access.Access;
import ballot.cql.access.DataResource;
import ballot.cql.access.Permission;
import ballot.cql.access.Resource;
import ballot.cql.access.RoleResource;
import ballot.cql.error.UnauthorizedException;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.Roles.Role;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules of who may do what, over roles and grants kept in maps (the node's stores are covered by AuthorizationIT). */
class AuthorizationTest {
    private static final DataResource T = DataResource.table("ks", "t");
    private final Map<String, Role> roles = new HashMap<>();
    private final MemoryPermissions granted = new MemoryPermissions();
    private final Authorization authorization = new Authorization(roles::get, granted);

    /** Grants in a map, by role and resource. */
    private static final class MemoryPermissions implements Permissions {
        final Map<String, Map<Resource, Set<Permission>>> rows = new HashMap<>();

        public boolean enabled() {
            return true;
        }

        public String authorizer() {
            return "CassandraAuthorizer";
        }

        public Set<Permission> granted(String role, Resource resource) {
            return rows.getOrDefault(role, Map.of()).getOrDefault(resource, Set.of());
        }

        public void grant(String role, Resource resource, Set<Permission> permissions) {
            rows.computeIfAbsent(role, r -> new HashMap<>()).computeIfAbsent(resource, r -> EnumSet.noneOf(Permission.class)).addAll(permissions);
        }

        public void revoke(String role, Resource resource, Set<Permission> permissions) {
            rows.getOrDefault(role, Map.of()).getOrDefault(resource, EnumSet.noneOf(Permission.class)).removeAll(permissions);
        }

        public List<Grant> list(String role) {
            List<Grant> out = new ArrayList<>();
            rows.forEach((r, byResource) -> byResource.forEach((resource, ps) -> ps.forEach(p -> out.add(new Grant(r, resource, p)))));
            return out;
        }

        public void revokeAllFrom(String role) {
            rows.remove(role);
        }

        public void revokeAllOn(Resource resource) {
            for (Map<Resource, Set<Permission>> byResource : rows.values()) byResource.keySet().removeIf(resource::covers);
        }
    }

    private void role(String name, boolean superuser, String... memberOf) {
        roles.put(name, new Role(name, superuser, true, Set.of(memberOf), null));
    }

    private static List<Access> needs(Permission permission, Resource resource) {
        return List.of(new Access(permission, resource));
    }

    @Test
    void refusesWhatIsNotGrantedWithCassandrasMessage() {
        role("alice", false);
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.SELECT, T))).isInstanceOf(UnauthorizedException.class)
                .hasMessage("User alice has no SELECT permission on <table ks.t> or any of its parents");
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.CREATE, DataResource.ALL_KEYSPACES)))
                .hasMessage("User alice has no CREATE permission on <all keyspaces> or any of its parents");
    }

    @Test
    void aPermissionOnAParentOrAHeldRoleHolds() {
        role("alice", false, "readers");
        role("readers", false, "base");
        role("base", false);
        granted.grant("base", DataResource.keyspace("ks"), Set.of(Permission.SELECT));
        assertThatCode(() -> authorization.check("alice", needs(Permission.SELECT, T))).doesNotThrowAnyException();
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.MODIFY, T))).isInstanceOf(UnauthorizedException.class);
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.SELECT, DataResource.table("other", "t"))))
                .isInstanceOf(UnauthorizedException.class);
        granted.grant("alice", DataResource.ALL_KEYSPACES, Set.of(Permission.MODIFY));
        assertThatCode(() -> authorization.check("alice", needs(Permission.MODIFY, T))).doesNotThrowAnyException();
    }

    @Test
    void superusersAndAnonymousClientsMayDoEverything() {
        role("root", true);
        role("admin", false, "root");
        assertThatCode(() -> authorization.check("root", needs(Permission.DROP, T))).doesNotThrowAnyException();
        assertThatCode(() -> authorization.check("admin", needs(Permission.SELECT, DataResource.table("system_auth", "roles"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> authorization.check(null, needs(Permission.DROP, T))).doesNotThrowAnyException();
    }

    @Test
    void driverTablesAreReadableByAllAndSystemAuthByNoOneElse() {
        role("alice", false);
        for (DataResource readable : List.of(DataResource.table("system", "local"), DataResource.table("system", "peers_v2"),
                DataResource.table("system_schema", "tables"), DataResource.table("system_virtual_schema", "columns")))
            assertThatCode(() -> authorization.check("alice", needs(Permission.SELECT, readable))).doesNotThrowAnyException();
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.SELECT, DataResource.table("system", "paxos"))))
                .isInstanceOf(UnauthorizedException.class);
        granted.grant("alice", DataResource.ALL_KEYSPACES, Set.of(Permission.SELECT, Permission.ALTER));
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.SELECT, DataResource.table("system_auth", "roles"))))
                .hasMessage("User alice has no SELECT permission on <table system_auth.roles> or any of its parents");
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.ALTER, DataResource.keyspace("system_auth"))))
                .isInstanceOf(UnauthorizedException.class);
    }

    @Test
    void withAllowAllOnlySystemAuthIsKeptFromNonSuperusers() {
        role("alice", false);
        Authorization allowAll = new Authorization(roles::get, Permissions.ALLOW_ALL);
        assertThatCode(() -> allowAll.check("alice", needs(Permission.DROP, T))).doesNotThrowAnyException();
        assertThatThrownBy(() -> allowAll.check("alice", needs(Permission.SELECT, DataResource.table("system_auth", "roles"))))
                .isInstanceOf(UnauthorizedException.class);
        allowAll.schemaChanged("alice", SchemaChange.keyspace(SchemaChange.Change.CREATED, "ks"));
    }

    @Test
    void managingRolesNeedsAGrantOrWithAllowAllASuperuser() {
        role("alice", false);
        assertThatThrownBy(() -> authorization.check("alice", needs(Permission.CREATE, RoleResource.ALL_ROLES)))
                .hasMessage("User alice has no CREATE permission on <all roles> or any of its parents");
        granted.grant("alice", RoleResource.ALL_ROLES, Set.of(Permission.DROP));
        assertThatCode(() -> authorization.check("alice", needs(Permission.DROP, RoleResource.of("bob")))).doesNotThrowAnyException();
        Authorization allowAll = new Authorization(roles::get, Permissions.ALLOW_ALL);
        assertThatThrownBy(() -> allowAll.check("alice", needs(Permission.DROP, RoleResource.of("bob"))))
                .hasMessage("User alice has no DROP permission on <role bob> or any of its parents");
    }

    @Test
    void theCreatorOwnsWhatItCreatesAndADropForgetsItsGrants() {
        authorization.schemaChanged("alice", SchemaChange.keyspace(SchemaChange.Change.CREATED, "ks"));
        authorization.schemaChanged("alice", SchemaChange.table(SchemaChange.Change.CREATED, "ks", "t"));
        authorization.schemaChanged(null, SchemaChange.table(SchemaChange.Change.CREATED, "ks", "anonymous"));
        assertThat(granted.granted("alice", DataResource.keyspace("ks"))).isEqualTo(DataResource.keyspace("ks").applicablePermissions());
        assertThat(granted.granted("alice", T)).isEqualTo(T.applicablePermissions());
        authorization.schemaChanged("bob", SchemaChange.table(SchemaChange.Change.UPDATED, "ks", "t"));
        assertThat(granted.rows).doesNotContainKey("bob");
        authorization.schemaChanged("bob", SchemaChange.keyspace(SchemaChange.Change.DROPPED, "ks"));
        assertThat(granted.list(null)).isEmpty();
    }
}

package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.auth.Authorization;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Parser;
import ballot.cql.error.UnauthorizedException;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.Roles;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Who may run which role statement with AllowAllAuthorizer, against roles kept in memory (the node's RoleStore is
 * covered by PasswordAuthenticationIT, permissions on roles by AuthorizationIT).
 */
class RoleStatementsTest {
    private final CasFixture fixture = new CasFixture();
    private final MemoryRoles roles = new MemoryRoles(true);

    /** Roles in a map; a password's "hash" is the password reversed, enough to see which one was set. */
    private static final class MemoryRoles implements Roles {
        final Map<String, Role> rows = new TreeMap<>();
        private final boolean passwords;

        MemoryRoles(boolean passwords) {
            this.passwords = passwords;
        }

        public boolean supportsPasswords() {
            return passwords;
        }

        public Role find(String name) {
            return rows.get(name);
        }

        public List<Role> all() {
            return new ArrayList<>(rows.values());
        }

        public void save(Role role) {
            Role old = rows.get(role.name());
            rows.put(role.name(), new Role(role.name(), role.superuser(), role.login(), old == null ? Set.of() : old.memberOf(),
                    role.saltedHash()));
        }

        public void drop(String name) {
            rows.remove(name);
        }

        public void grant(String role, String member) {
            Role m = rows.get(member);
            Set<String> memberOf = new HashSet<>(m.memberOf());
            memberOf.add(role);
            rows.put(member, new Role(m.name(), m.superuser(), m.login(), memberOf, m.saltedHash()));
        }

        public void revoke(String role, String member) {
            Role m = rows.get(member);
            Set<String> memberOf = new HashSet<>(m.memberOf());
            memberOf.remove(role);
            rows.put(member, new Role(m.name(), m.superuser(), m.login(), memberOf, m.saltedHash()));
        }

        public String hash(String password) {
            return new StringBuilder(password).reverse().toString();
        }
    }

    /** Runs {@code cql} as {@code as} does through the query processor: checked by the authorizer, then executed. */
    private Result run(String cql, Roles roles, String as) {
        Parser.Parsed parsed = Parser.parse(cql);
        CqlStatement statement = fixture.preparer.prepare(parsed, null);
        new Authorization(roles::find, Permissions.ALLOW_ALL).check(as, StatementAccess.of(parsed.statement(), null, fixture.schema()));
        return statement.execute(QueryContext.of(fixture.environment, null, QueryOptions.DEFAULT, statement).loggedIn(roles, Permissions.ALLOW_ALL, as)).join();
    }

    private Result run(String cql, String as) {
        return run(cql, roles, as);
    }

    private void withRoles() {
        roles.save(new Roles.Role("cassandra", true, true, Set.of(), "x"));
        roles.save(new Roles.Role("alice", false, true, Set.of(), "x"));
    }

    private static List<String> firstColumn(Result result) {
        List<String> out = new ArrayList<>();
        for (ByteBuffer[] row : ((Rows) result).rows()) out.add((String) CqlTypes.TEXT.compose(row[0].duplicate()));
        return out;
    }

    @Test
    void aSuperuserCreatesAltersAndDropsRoles() {
        withRoles();
        run("CREATE ROLE bob WITH PASSWORD = 'pw' AND LOGIN = true", "cassandra");
        assertThat(roles.find("bob")).isEqualTo(new Roles.Role("bob", false, true, Set.of(), "wp"));
        run("ALTER ROLE bob WITH SUPERUSER = true AND PASSWORD = 'new'", "cassandra");
        assertThat(roles.find("bob")).isEqualTo(new Roles.Role("bob", true, true, Set.of(), "wen"));
        run("CREATE USER carol WITH PASSWORD 'c'", "cassandra");
        assertThat(roles.find("carol").login()).isTrue();
        run("DROP ROLE bob", "cassandra");
        assertThat(roles.find("bob")).isNull();
    }

    @Test
    void anotherRoleMayChangeOnlyItsOwnPassword() {
        withRoles();
        run("ALTER ROLE alice WITH PASSWORD = 'mine'", "alice");
        assertThat(roles.find("alice").saltedHash()).isEqualTo("enim");
        assertThatThrownBy(() -> run("ALTER ROLE alice WITH LOGIN = false", "alice")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("You aren't allowed to alter LOGIN");
        assertThatThrownBy(() -> run("ALTER ROLE alice WITH SUPERUSER = true", "alice")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("You aren't allowed to alter your own superuser status or that of a role granted to you");
        assertThatThrownBy(() -> run("ALTER ROLE cassandra WITH PASSWORD = 'x'", "alice")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("User alice has no ALTER permission on <role cassandra> or any of its parents");
        assertThatThrownBy(() -> run("CREATE ROLE eve", "alice")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("User alice has no CREATE permission on <all roles> or any of its parents");
        assertThatThrownBy(() -> run("DROP ROLE cassandra", "alice")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("User alice has no DROP permission on <role cassandra> or any of its parents");
        assertThatThrownBy(() -> run("GRANT cassandra TO alice", "alice")).isInstanceOf(UnauthorizedException.class)
                .hasMessage("User alice has no AUTHORIZE permission on <role cassandra> or any of its parents");
        assertThat(roles.find("cassandra").saltedHash()).isEqualTo("x");
    }

    @Test
    void holdingASuperuserRoleMakesASuperuser() {
        withRoles();
        run("CREATE ROLE admins WITH SUPERUSER = true", "cassandra");
        run("GRANT admins TO alice", "cassandra");
        run("CREATE ROLE by_alice", "alice");
        assertThat(firstColumn(run("LIST ROLES", "alice"))).containsExactly("admins", "alice", "by_alice", "cassandra");
        assertThatThrownBy(() -> run("GRANT alice TO admins", "cassandra")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("alice is a member of admins");
        run("REVOKE admins FROM alice", "cassandra");
        assertThatThrownBy(() -> run("CREATE ROLE again", "alice")).isInstanceOf(UnauthorizedException.class);
        assertThat(firstColumn(run("LIST ROLES", "alice"))).containsExactly("alice");
    }

    @Test
    void listUsersShowsRolesThatLogIn() {
        withRoles();
        run("CREATE ROLE group_role", "cassandra");
        assertThat(firstColumn(run("LIST USERS", "cassandra"))).containsExactly("alice", "cassandra");
        assertThat(firstColumn(run("LIST ROLES", "cassandra"))).containsExactly("alice", "cassandra", "group_role");
    }

    @Test
    void badInputIsInvalid() {
        withRoles();
        assertThatThrownBy(() -> run("CREATE ROLE alice", "cassandra")).hasMessage("alice already exists");
        assertThatThrownBy(() -> run("CREATE USER alice", "cassandra")).hasMessage("User alice already exists");
        assertThatThrownBy(() -> run("DROP USER nobody", "cassandra")).hasMessage("User nobody doesn't exist");
        assertThatThrownBy(() -> run("DROP ROLE cassandra", "cassandra")).hasMessage("Cannot DROP primary role for current login");
        assertThatThrownBy(() -> run("ALTER USER alice", "cassandra")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("ALTER [ROLE|USER] can't be empty");
        assertThatThrownBy(() -> run("CREATE ROLE ''", "cassandra")).hasMessage("Role name can't be an empty string");
        assertThatThrownBy(() -> run("REVOKE cassandra FROM alice", "cassandra")).hasMessage("alice is not a member of cassandra");
        assertThatThrownBy(() -> run("LIST ROLES OF nobody", "cassandra")).hasMessage("nobody doesn't exist");
        run("CREATE ROLE IF NOT EXISTS alice", "cassandra");
        run("DROP ROLE IF EXISTS nobody", "cassandra");
    }

    @Test
    void anAnonymousClientIsRefusedAndPasswordsNeedPasswordAuthenticator() {
        MemoryRoles withoutPasswords = new MemoryRoles(false);
        assertThatThrownBy(() -> run("CREATE ROLE r WITH LOGIN = true", withoutPasswords, null)).isInstanceOf(UnauthorizedException.class)
                .hasMessage("You have to be logged in and not anonymous to perform this request");
        assertThatThrownBy(() -> run("LIST ROLES", withoutPasswords, null)).isInstanceOf(UnauthorizedException.class);
        assertThatThrownBy(() -> run("CREATE ROLE r WITH PASSWORD = 'p'", withoutPasswords, null)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("org.apache.cassandra.auth.CassandraRoleManager doesn't support PASSWORD");
        assertThat(withoutPasswords.rows).isEmpty();
    }
}

package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A node with PasswordAuthenticator and the DataStax driver: logins, the default superuser, the role statements. */
class PasswordAuthenticationIT {
    private static TestNode node;
    private static CqlSession superuser;

    @BeforeAll
    static void start() throws InterruptedException {
        node = TestNode.start("password-auth", config -> config.authenticator = "PasswordAuthenticator");
        superuser = loginAsDefaultSuperuser();
    }

    @AfterAll
    static void stop() {
        if (superuser != null) superuser.close();
        if (node != null) node.close();
    }

    /** The default superuser is created just after the node starts serving, off the start path: wait for it. */
    private static CqlSession loginAsDefaultSuperuser() throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return node.sessionAs("cassandra", "cassandra");
            } catch (AllNodesFailedException e) {
                if (System.nanoTime() > deadline) throw e;
                Thread.sleep(100);
            }
        }
    }

    /** What the node answered a login, as the driver reports it. */
    private static AuthenticationException loginFailure(String role, String password) {
        Throwable failure = null;
        try (CqlSession session = role == null ? node.session() : node.sessionAs(role, password)) {
            throw new AssertionError("logged in as " + role);
        } catch (AllNodesFailedException e) {
            failure = e.getAllErrors().values().iterator().next().get(0);
        }
        assertThat(failure).isInstanceOf(AuthenticationException.class);
        return (AuthenticationException) failure;
    }

    @Test
    void defaultSuperuserLogsInAndIsListed() {
        Row row = superuser.execute("LIST ROLES OF cassandra").one();
        assertThat(row.getString("role")).isEqualTo("cassandra");
        assertThat(row.getBoolean("super")).isTrue();
        assertThat(row.getBoolean("login")).isTrue();
        assertThat(row.getString("datacenters")).isEqualTo("ALL");
        assertThat(superuser.execute("SELECT is_superuser FROM system_auth.roles WHERE role = 'cassandra'").one().getBoolean(0)).isTrue();
    }

    @Test
    void refusesAWrongPasswordAnUnknownRoleAndNoCredentials() {
        assertThat(loginFailure("cassandra", "wrong").getMessage()).contains("Provided username cassandra and/or password are incorrect");
        assertThat(loginFailure("nobody", "cassandra").getMessage()).contains("Provided username nobody and/or password are incorrect");
        assertThat(loginFailure(null, null).getMessage()).contains("org.apache.cassandra.auth.PasswordAuthenticator");
    }

    @Test
    void aNewRoleLogsInAndMayChangeOnlyItsOwnPassword() {
        superuser.execute("CREATE ROLE alice WITH PASSWORD = 'alice1' AND LOGIN = true");
        try (CqlSession alice = node.sessionAs("alice", "alice1")) {
            assertThatThrownBy(() -> alice.execute("CREATE ROLE mallory WITH PASSWORD = 'm' AND LOGIN = true"))
                    .isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("User alice has no CREATE permission on <all roles> or any of its parents");
            assertThatThrownBy(() -> alice.execute("ALTER ROLE cassandra WITH PASSWORD = 'x'"))
                    .isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("User alice has no ALTER permission on <role cassandra> or any of its parents");
            assertThatThrownBy(() -> alice.execute("ALTER ROLE alice WITH SUPERUSER = true"))
                    .isInstanceOf(UnauthorizedException.class);
            assertThat(names(alice.execute("LIST ROLES").all(), "role")).containsExactly("alice");
            assertThatThrownBy(() -> alice.execute("UPDATE system_auth.roles SET is_superuser = true WHERE role = 'alice'"))
                    .isInstanceOf(UnauthorizedException.class).hasMessageContaining("system_auth keyspace is not user-modifiable");
            assertThatThrownBy(() -> alice.execute("SELECT salted_hash FROM system_auth.roles"))
                    .isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("User alice has no SELECT permission on <table system_auth.roles> or any of its parents");
            alice.execute("ALTER ROLE alice WITH PASSWORD = 'alice2'");
        }
        assertThat(loginFailure("alice", "alice1").getMessage()).contains("Provided username alice and/or password are incorrect");
        try (CqlSession alice = node.sessionAs("alice", "alice2")) {
            assertThat(alice.execute("SELECT release_version FROM system.local").one()).isNotNull();
        }
    }

    @Test
    void aRoleWithoutLoginIsRefused() {
        superuser.execute("CREATE ROLE reader WITH PASSWORD = 'r' AND LOGIN = false");
        assertThat(loginFailure("reader", "r").getMessage()).contains("reader is not permitted to log in");
    }

    @Test
    void aDroppedRoleNoLongerLogsIn() {
        superuser.execute("CREATE USER bob WITH PASSWORD 'bob1' NOSUPERUSER");
        node.sessionAs("bob", "bob1").close();
        superuser.execute("DROP USER bob");
        assertThat(loginFailure("bob", "bob1").getMessage()).contains("Provided username bob and/or password are incorrect");
        assertThatThrownBy(() -> superuser.execute("DROP ROLE bob")).isInstanceOf(InvalidQueryException.class).hasMessageContaining("bob doesn't exist");
        superuser.execute("DROP ROLE IF EXISTS bob");
    }

    @Test
    void roleStatementsAnswerAsCassandra() {
        superuser.execute("CREATE ROLE IF NOT EXISTS carol WITH PASSWORD = 'c' AND LOGIN = true AND SUPERUSER = true");
        superuser.execute("CREATE ROLE IF NOT EXISTS carol");
        superuser.execute("CREATE ROLE nologin");
        assertThatThrownBy(() -> superuser.execute("CREATE ROLE carol")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("carol already exists");
        assertThatThrownBy(() -> superuser.execute("CREATE USER carol WITH PASSWORD 'c'")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("User carol already exists");
        assertThatThrownBy(() -> superuser.execute("ALTER ROLE nobody WITH LOGIN = true")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("nobody doesn't exist");
        assertThatThrownBy(() -> superuser.execute("DROP ROLE cassandra")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Cannot DROP primary role for current login");

        List<Row> roles = superuser.execute("LIST ROLES").all();
        assertThat(roles.get(0).getColumnDefinitions().size()).isEqualTo(5);
        Map<String, Row> byName = roles.stream().collect(Collectors.toMap(r -> r.getString("role"), r -> r));
        assertThat(byName.get("carol").getBoolean("super")).isTrue();
        assertThat(byName.get("nologin").getBoolean("login")).isFalse();
        assertThat(byName.get("nologin").getMap("options", String.class, String.class)).isEmpty();
        assertThat(names(roles, "role")).isSorted();

        List<Row> users = superuser.execute("LIST USERS").all();
        assertThat(users.get(0).getColumnDefinitions().get(0).getName().asInternal()).isEqualTo("name");
        assertThat(names(users, "name")).contains("cassandra", "carol").doesNotContain("nologin");
    }

    @Test
    void aRoleGrantedASuperuserRoleActsAsASuperuserUntilRevoked() {
        superuser.execute("CREATE ROLE admins WITH SUPERUSER = true");
        superuser.execute("CREATE ROLE erin WITH PASSWORD = 'e' AND LOGIN = true");
        superuser.execute("GRANT admins TO erin");
        assertThatThrownBy(() -> superuser.execute("GRANT admins TO erin")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("erin is a member of admins");
        // a cycle: erin already holds admins
        assertThatThrownBy(() -> superuser.execute("GRANT erin TO admins")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("erin is a member of admins");
        assertThat(names(superuser.execute("LIST ROLES OF erin").all(), "role")).containsExactly("admins", "erin");
        assertThat(superuser.execute("SELECT member FROM system_auth.role_members WHERE role = 'admins'").one().getString(0)).isEqualTo("erin");
        try (CqlSession erin = node.sessionAs("erin", "e")) {
            erin.execute("CREATE ROLE made_by_erin");
            assertThat(names(erin.execute("LIST ROLES").all(), "role")).contains("cassandra", "made_by_erin");
            superuser.execute("REVOKE admins FROM erin");
            assertThatThrownBy(() -> erin.execute("CREATE ROLE another")).isInstanceOf(UnauthorizedException.class);
        }
        assertThatThrownBy(() -> superuser.execute("REVOKE admins FROM erin")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("erin is not a member of admins");
        superuser.execute("GRANT admins TO erin");
        superuser.execute("DROP ROLE admins");
        assertThat(names(superuser.execute("LIST ROLES OF erin").all(), "role")).containsExactly("erin");
        assertThat(superuser.execute("SELECT member_of FROM system_auth.roles WHERE role = 'erin'").one().getSet(0, String.class)).isEmpty();
    }

    @Test
    void withAllowAllAuthorizerPermissionStatementsAreRefusedAsUnsupported() {
        assertThatThrownBy(() -> superuser.execute("GRANT SELECT ON ALL KEYSPACES TO cassandra")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("GRANT operation is not supported by AllowAllAuthorizer");
        assertThatThrownBy(() -> superuser.execute("LIST ALL PERMISSIONS")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("LIST PERMISSIONS operation is not supported by AllowAllAuthorizer");
    }

    private static List<String> names(List<Row> rows, String column) {
        return rows.stream().map(r -> r.getString(column)).toList();
    }

    @Test
    void withoutAuthenticationRoleStatementsAreRefusedAsForAnAnonymousUser() {
        try (TestNode open = TestNode.start("allow-all"); CqlSession session = open.session()) {
            assertThatThrownBy(() -> session.execute("CREATE ROLE dave WITH LOGIN = true")).isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("You have to be logged in and not anonymous to perform this request");
            assertThatThrownBy(() -> session.execute("CREATE ROLE dave WITH PASSWORD = 'd'")).isInstanceOf(InvalidQueryException.class)
                    .hasMessageContaining("doesn't support PASSWORD");
            assertThatThrownBy(() -> session.execute("LIST ROLES")).isInstanceOf(UnauthorizedException.class);
        }
    }
}

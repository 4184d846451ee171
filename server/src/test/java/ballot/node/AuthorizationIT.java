package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node with PasswordAuthenticator and CassandraAuthorizer, and the DataStax driver: what each statement needs, GRANT,
 * REVOKE and LIST PERMISSIONS on data and roles, inheritance through roles and resources, grants kept in step with the
 * schema and the roles, and ALTER KEYSPACE system_auth. The
 * node keeps the default permissions_validity_in_ms: a GRANT or REVOKE on this node must take effect at once anyway.
 */
class AuthorizationIT {
    private static TestNode node;
    private static CqlSession superuser;

    @BeforeAll
    static void start() throws InterruptedException {
        node = TestNode.start("authorization", config -> {
            config.authenticator = "PasswordAuthenticator";
            config.authorizer = "CassandraAuthorizer";
        });
        superuser = loginAsDefaultSuperuser(node);
        superuser.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        superuser.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
        superuser.execute("CREATE TABLE ks.other (k int PRIMARY KEY, v int)");
        superuser.execute("INSERT INTO ks.t (k, v) VALUES (1, 10)");
    }

    @AfterAll
    static void stop() {
        if (superuser != null) superuser.close();
        if (node != null) node.close();
    }

    /** The default superuser is created just after the node starts serving, off the start path: wait for it. */
    private static CqlSession loginAsDefaultSuperuser(TestNode node) throws InterruptedException {
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

    /** A new role that logs in with password "p", and a session as it. */
    private static CqlSession newUser(String role) {
        superuser.execute("CREATE ROLE " + role + " WITH PASSWORD = 'p' AND LOGIN = true");
        return node.sessionAs(role, "p");
    }

    private static void assertRefused(CqlSession session, String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).isInstanceOf(UnauthorizedException.class).hasMessageContaining(message);
    }

    @Test
    void selectIsRefusedUntilGrantedAndAgainOnceRevoked() {
        try (CqlSession alice = newUser("alice")) {
            assertRefused(alice, "SELECT v FROM ks.t WHERE k = 1", "User alice has no SELECT permission on <table ks.t> or any of its parents");
            superuser.execute("GRANT SELECT ON TABLE ks.t TO alice");
            assertThat(alice.execute("SELECT v FROM ks.t WHERE k = 1").one().getInt(0)).isEqualTo(10);
            assertRefused(alice, "SELECT v FROM ks.other WHERE k = 1", "User alice has no SELECT permission on <table ks.other>");
            assertRefused(alice, "INSERT INTO ks.t (k, v) VALUES (2, 2)", "User alice has no MODIFY permission on <table ks.t> or any of its parents");
            superuser.execute("REVOKE SELECT ON ks.t FROM alice");
            assertRefused(alice, "SELECT v FROM ks.t WHERE k = 1", "User alice has no SELECT permission on <table ks.t>");
        }
    }

    @Test
    void writesNeedModifyForEveryBatchMemberAndConditionsNeedSelectToo() {
        try (CqlSession bob = newUser("bob")) {
            superuser.execute("GRANT MODIFY ON ks.t TO bob");
            bob.execute("INSERT INTO ks.t (k, v) VALUES (20, 1)");
            bob.execute("UPDATE ks.t SET v = 2 WHERE k = 20");
            bob.execute("DELETE FROM ks.t WHERE k = 20");
            assertRefused(bob, "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (21, 1); INSERT INTO ks.other (k, v) VALUES (21, 1); APPLY BATCH",
                    "User bob has no MODIFY permission on <table ks.other> or any of its parents");
            assertRefused(bob, "INSERT INTO ks.t (k, v) VALUES (22, 1) IF NOT EXISTS",
                    "User bob has no SELECT permission on <table ks.t> or any of its parents");
            assertRefused(bob, "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (23, 1) IF NOT EXISTS; INSERT INTO ks.t (k, v) VALUES (24, 1) IF NOT EXISTS; APPLY BATCH",
                    "User bob has no SELECT permission on <table ks.t>");
            assertRefused(bob, "SELECT v FROM ks.t WHERE k = 22 ", "User bob has no SELECT permission on <table ks.t>");
            // Granted on the keyspace: holds on its tables.
            superuser.execute("GRANT SELECT ON KEYSPACE ks TO bob");
            assertThat(bob.execute("INSERT INTO ks.t (k, v) VALUES (22, 1) IF NOT EXISTS").wasApplied()).isTrue();
            assertThat(bob.execute("BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (23, 1) IF NOT EXISTS; "
                    + "INSERT INTO ks.t (k, v) VALUES (24, 1) IF NOT EXISTS; APPLY BATCH").wasApplied()).isTrue();
            assertRefused(bob, "TRUNCATE ks.other", "User bob has no MODIFY permission on <table ks.other>");
            bob.execute("BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (25, 1); APPLY BATCH");
        }
    }

    @Test
    void aTransactionNeedsSelectForItsReadsAndModifyForItsWrites() {
        String transaction = "BEGIN TRANSACTION LET a = (SELECT v FROM ks.t WHERE k = 1); SELECT a.v; "
                + "IF a IS NOT NULL THEN INSERT INTO ks.other (k, v) VALUES (30, 1); END IF COMMIT TRANSACTION";
        try (CqlSession carl = newUser("carl")) {
            superuser.execute("GRANT MODIFY ON ks.other TO carl");
            assertRefused(carl, transaction, "User carl has no SELECT permission on <table ks.t> or any of its parents");
            superuser.execute("REVOKE MODIFY ON ks.other FROM carl");
            superuser.execute("GRANT SELECT ON ks.t TO carl");
            assertRefused(carl, transaction, "User carl has no MODIFY permission on <table ks.other> or any of its parents");
            superuser.execute("GRANT MODIFY ON ks.other TO carl");
            assertThat(carl.execute(transaction).one().getInt(0)).isEqualTo(10);
        }
    }

    @Test
    void aCreatorOwnsWhatItCreatesAndDropsTakeTheGrantsAway() {
        try (CqlSession carol = newUser("carol")) {
            String create = "CREATE KEYSPACE carol_ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";
            assertRefused(carol, create, "User carol has no CREATE permission on <all keyspaces> or any of its parents");
            assertRefused(carol, "CREATE TABLE ks.carols (k int PRIMARY KEY)", "User carol has no CREATE permission on <keyspace ks> or any of its parents");
            assertRefused(carol, "ALTER TABLE ks.t WITH comment = 'x'", "User carol has no ALTER permission on <table ks.t> or any of its parents");
            assertRefused(carol, "DROP TABLE ks.t", "User carol has no DROP permission on <table ks.t> or any of its parents");
            assertRefused(carol, "DROP KEYSPACE ks", "User carol has no DROP permission on <keyspace ks> or any of its parents");
            superuser.execute("GRANT CREATE ON ALL KEYSPACES TO carol");
            carol.execute(create);
            carol.execute("CREATE TABLE carol_ks.t (k int PRIMARY KEY, v int)");
            carol.execute("INSERT INTO carol_ks.t (k, v) VALUES (1, 1)");
            assertThat(carol.execute("SELECT v FROM carol_ks.t WHERE k = 1").one().getInt(0)).isEqualTo(1);
            assertThat(listed(carol, "LIST ALL PERMISSIONS OF carol")).containsExactly(
                    "carol <all keyspaces> CREATE",
                    "carol <keyspace carol_ks> CREATE", "carol <keyspace carol_ks> ALTER", "carol <keyspace carol_ks> DROP",
                    "carol <keyspace carol_ks> SELECT", "carol <keyspace carol_ks> MODIFY", "carol <keyspace carol_ks> AUTHORIZE",
                    "carol <table carol_ks.t> ALTER", "carol <table carol_ks.t> DROP", "carol <table carol_ks.t> SELECT",
                    "carol <table carol_ks.t> MODIFY", "carol <table carol_ks.t> AUTHORIZE");
            carol.execute("DROP KEYSPACE carol_ks");
            assertThat(listed(superuser, "LIST ALL PERMISSIONS OF carol")).containsExactly("carol <all keyspaces> CREATE");
        }
        superuser.execute("DROP ROLE carol");
        assertThat(superuser.execute("SELECT * FROM system_auth.role_permissions WHERE role = 'carol'").all()).isEmpty();
    }

    @Test
    void permissionsAreInheritedThroughGrantedRoles() {
        superuser.execute("CREATE ROLE readers");
        superuser.execute("GRANT SELECT ON KEYSPACE ks TO readers");
        try (CqlSession dave = newUser("dave")) {
            assertRefused(dave, "SELECT v FROM ks.t WHERE k = 1", "User dave has no SELECT permission on <table ks.t>");
            superuser.execute("GRANT readers TO dave");
            assertThat(dave.execute("SELECT v FROM ks.t WHERE k = 1").one().getInt(0)).isEqualTo(10);
            assertThat(listed(dave, "LIST ALL PERMISSIONS OF dave")).containsExactly("readers <keyspace ks> SELECT");
            assertRefused(dave, "LIST ALL PERMISSIONS", "You are not authorized to view everyone's permissions");
            assertRefused(dave, "LIST ALL PERMISSIONS OF cassandra", "You are not authorized to view cassandra's permissions");
            superuser.execute("REVOKE readers FROM dave");
            assertRefused(dave, "SELECT v FROM ks.t WHERE k = 1", "User dave has no SELECT permission on <table ks.t>");
        }
    }

    @Test
    void listPermissionsAnswersWithCassandrasColumnsAndOrder() {
        superuser.execute("CREATE ROLE lister");
        superuser.execute("GRANT ALL PERMISSIONS ON TABLE ks.t TO lister");
        superuser.execute("GRANT SELECT ON ALL KEYSPACES TO lister");
        List<Row> rows = superuser.execute("LIST ALL OF lister").all();
        assertThat(rows.get(0).getColumnDefinitions().get(0).getKeyspace().asInternal()).isEqualTo("system_auth");
        assertThat(rows.get(0).getColumnDefinitions().get(0).getTable().asInternal()).isEqualTo("permissions");
        assertThat(List.of(0, 1, 2, 3).stream().map(i -> rows.get(0).getColumnDefinitions().get(i).getName().asInternal()))
                .containsExactly("role", "username", "resource", "permission");
        assertThat(listed(superuser, "LIST ALL OF lister")).containsExactly("lister <all keyspaces> SELECT",
                "lister <table ks.t> ALTER", "lister <table ks.t> DROP", "lister <table ks.t> SELECT", "lister <table ks.t> MODIFY",
                "lister <table ks.t> AUTHORIZE");
        assertThat(listed(superuser, "LIST SELECT ON ks.t OF lister")).containsExactly("lister <all keyspaces> SELECT", "lister <table ks.t> SELECT");
        assertThat(listed(superuser, "LIST SELECT ON ks.t OF lister NORECURSIVE")).containsExactly("lister <table ks.t> SELECT");
        superuser.execute("GRANT CREATE ON ALL KEYSPACES TO lister");
        assertThat(listed(superuser, "LIST ALL ON ks.t OF lister")).startsWith("lister <all keyspaces> CREATE", "lister <all keyspaces> SELECT");
        superuser.execute("REVOKE CREATE ON ALL KEYSPACES FROM lister");
        assertThat(listed(superuser, "LIST MODIFY PERMISSION ON KEYSPACE ks OF lister")).isEmpty();
        superuser.execute("REVOKE ALL ON ks.t FROM lister");
        assertThat(listed(superuser, "LIST ALL OF lister")).containsExactly("lister <all keyspaces> SELECT");
    }

    @Test
    void badGrantsAreRefusedWithCassandrasMessages() {
        superuser.execute("CREATE ROLE grantee");
        assertThatThrownBy(() -> superuser.execute("GRANT SELECT ON ks.t TO nobody")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Role nobody doesn't exist");
        assertThatThrownBy(() -> superuser.execute("GRANT SELECT ON ks.nosuch TO grantee")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Resource <table ks.nosuch> doesn't exist");
        assertThatThrownBy(() -> superuser.execute("GRANT SELECT ON KEYSPACE nosuch TO grantee")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Resource <keyspace nosuch> doesn't exist");
        assertThatThrownBy(() -> superuser.execute("GRANT CREATE ON ks.t TO grantee")).isInstanceOf(SyntaxError.class)
                .hasMessageContaining("Resource type DataResource does not support any of the requested permissions");
        assertThatThrownBy(() -> superuser.execute("GRANT DESCRIBE ON KEYSPACE ks TO grantee")).isInstanceOf(SyntaxError.class)
                .hasMessageContaining("Resource type DataResource does not support any of the requested permissions");
        assertThatThrownBy(() -> superuser.execute("LIST ALL OF nobody")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("<role nobody> doesn't exist");
    }

    @Test
    void grantingNeedsAuthorizeAndThePermissionGranted() {
        superuser.execute("CREATE ROLE frank_grantee");
        try (CqlSession frank = newUser("frank")) {
            assertRefused(frank, "GRANT SELECT ON ks.t TO frank_grantee", "User frank has no AUTHORIZE permission on <table ks.t> or any of its parents");
            superuser.execute("GRANT AUTHORIZE ON KEYSPACE ks TO frank");
            assertRefused(frank, "GRANT SELECT ON ks.t TO frank_grantee", "User frank has no SELECT permission on <table ks.t> or any of its parents");
            superuser.execute("GRANT SELECT ON KEYSPACE ks TO frank");
            frank.execute("GRANT SELECT ON ks.t TO frank_grantee");
            assertRefused(frank, "GRANT MODIFY ON ks.t TO frank_grantee", "User frank has no MODIFY permission on <table ks.t>");
            assertThat(listed(frank, "LIST ALL OF frank")).containsExactly("frank <keyspace ks> SELECT", "frank <keyspace ks> AUTHORIZE");
        }
        assertThat(listed(superuser, "LIST ALL OF frank_grantee")).containsExactly("frank_grantee <table ks.t> SELECT");
    }

    @Test
    void aPreparedStatementIsCheckedAtEachExecution() {
        PreparedStatement bySuperuser = superuser.prepare("SELECT v FROM ks.t WHERE k = ?");
        assertThat(superuser.execute(bySuperuser.bind(1)).one().getInt(0)).isEqualTo(10);
        try (CqlSession grace = newUser("grace")) {
            // The same query text: the same prepared statement, prepared by someone else.
            PreparedStatement select = grace.prepare("SELECT v FROM ks.t WHERE k = ?");
            assertThat(select.getId()).isEqualTo(bySuperuser.getId());
            assertThatThrownBy(() -> grace.execute(select.bind(1))).isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("User grace has no SELECT permission on <table ks.t>");
            superuser.execute("GRANT SELECT ON ks.t TO grace");
            assertThat(grace.execute(select.bind(1)).one().getInt(0)).isEqualTo(10);
            superuser.execute("REVOKE SELECT ON ks.t FROM grace");
            assertThatThrownBy(() -> grace.execute(select.bind(1))).isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("User grace has no SELECT permission on <table ks.t>");
            PreparedStatement insert = grace.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
            assertThatThrownBy(() -> grace.execute(insert.bind(40, 1))).isInstanceOf(UnauthorizedException.class)
                    .hasMessageContaining("User grace has no MODIFY permission on <table ks.t>");
        }
    }

    @Test
    void everyRoleReadsTheTablesDriversNeedButNotSystemAuth() {
        // The driver itself read system.local, system.peers and system_schema to open this session.
        try (CqlSession henry = newUser("henry")) {
            assertThat(henry.execute("SELECT release_version FROM system.local").one()).isNotNull();
            assertThat(henry.execute("SELECT * FROM system.peers_v2").all()).isEmpty();
            assertThat(henry.execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'ks'").all()).hasSize(2);
            assertThat(henry.getMetadata().getKeyspace("ks")).isPresent();
            assertRefused(henry, "SELECT role FROM system_auth.roles", "User henry has no SELECT permission on <table system_auth.roles>");
            superuser.execute("GRANT SELECT ON ALL KEYSPACES TO henry");
            assertRefused(henry, "SELECT role FROM system_auth.role_permissions",
                    "User henry has no SELECT permission on <table system_auth.role_permissions>");
            assertThatThrownBy(() -> henry.execute("INSERT INTO system_auth.role_permissions (role, resource) VALUES ('henry', 'data')"))
                    .isInstanceOf(UnauthorizedException.class).hasMessageContaining("system_auth keyspace is not user-modifiable");
        }
    }

    @Test
    void permissionsOnRolesLetAnotherRoleManageRoles() {
        try (CqlSession kim = newUser("kim")) {
            assertRefused(kim, "CREATE ROLE kims_role", "User kim has no CREATE permission on <all roles> or any of its parents");
            superuser.execute("GRANT CREATE ON ALL ROLES TO kim");
            kim.execute("CREATE ROLE kims_role");
            assertRefused(kim, "CREATE ROLE kims_admin WITH SUPERUSER = true", "Only superusers can create a role with superuser status");
            // The creator of a role may alter, drop and grant it.
            assertThat(listed(kim, "LIST ALL PERMISSIONS OF kim")).containsExactly("kim <all roles> CREATE",
                    "kim <role kims_role> ALTER", "kim <role kims_role> DROP", "kim <role kims_role> AUTHORIZE");
            kim.execute("ALTER ROLE kims_role WITH LOGIN = false");
            kim.execute("GRANT kims_role TO kim");
            assertRefused(kim, "ALTER ROLE cassandra WITH LOGIN = true", "User kim has no ALTER permission on <role cassandra> or any of its parents");
            assertRefused(kim, "DROP ROLE cassandra", "User kim has no DROP permission on <role cassandra> or any of its parents");
            assertRefused(kim, "GRANT cassandra TO kim", "User kim has no AUTHORIZE permission on <role cassandra> or any of its parents");
            assertRefused(kim, "LIST ALL PERMISSIONS", "You are not authorized to view everyone's permissions");
            assertThat(kim.execute("LIST ROLES").all().stream().map(r -> r.getString("role"))).containsExactly("kim", "kims_role");
            superuser.execute("GRANT DESCRIBE ON ALL ROLES TO kim");
            assertThat(kim.execute("LIST ROLES").all().stream().map(r -> r.getString("role"))).contains("cassandra", "kim", "kims_role");
            assertThat(listed(kim, "LIST ALL PERMISSIONS")).contains("kim <all roles> DESCRIBE");
            kim.execute("REVOKE kims_role FROM kim");
            kim.execute("DROP ROLE kims_role");
        }
        // Dropping the role took the grants on it away.
        assertThat(listed(superuser, "LIST ALL PERMISSIONS OF kim")).containsExactly("kim <all roles> CREATE", "kim <all roles> DESCRIBE");
        assertThatThrownBy(() -> superuser.execute("GRANT ALTER ON ROLE nobody TO kim")).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Resource <role nobody> doesn't exist");
    }

    @Test
    void aSuperuserAltersSystemAuthsReplicationAndTheChangeOutlivesARestart() throws InterruptedException {
        String alter = "ALTER KEYSPACE system_auth WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1}";
        String replication = "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'system_auth'";
        try (CqlSession ivy = newUser("ivy")) {
            superuser.execute("GRANT ALTER ON ALL KEYSPACES TO ivy");
            assertRefused(ivy, alter, "User ivy has no ALTER permission on <keyspace system_auth> or any of its parents");
        }
        assertThatThrownBy(() -> superuser.execute("ALTER KEYSPACE system WITH durable_writes = false"))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("system keyspace is not user-modifiable");
        assertThatThrownBy(() -> superuser.execute("DROP KEYSPACE system_auth"))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("system_auth keyspace is not user-modifiable");
        // The change itself on a node of its own, which is restarted, so that the other tests are not disturbed.
        TestNode own = TestNode.start("authorization-system-auth", config -> {
            config.authenticator = "PasswordAuthenticator";
            config.authorizer = "CassandraAuthorizer";
        });
        try (own) {
            try (CqlSession admin = loginAsDefaultSuperuser(own)) {
                admin.execute(alter);
                assertThat(admin.execute(replication).one().getMap(0, String.class, String.class))
                        .containsEntry("datacenter1", "1").hasEntrySatisfying("class", c -> assertThat(c).endsWith("NetworkTopologyStrategy"));
                admin.execute("CREATE ROLE after_alter");
            }
            own.restart();
            try (CqlSession admin = loginAsDefaultSuperuser(own)) {
                assertThat(admin.execute(replication).one().getMap(0, String.class, String.class)).containsEntry("datacenter1", "1");
                assertThat(admin.execute("SELECT role FROM system_auth.roles WHERE role = 'after_alter'").one()).isNotNull();
            }
        }
    }

    /** The rows of a LIST PERMISSIONS as "role resource permission", in the order the node sent them. */
    private static List<String> listed(CqlSession session, String cql) {
        return session.execute(cql).all().stream().map(r -> {
            assertThat(r.getString("username")).isEqualTo(r.getString("role"));
            return r.getString("role") + " " + r.getString("resource") + " " + r.getString("permission");
        }).toList();
    }
}

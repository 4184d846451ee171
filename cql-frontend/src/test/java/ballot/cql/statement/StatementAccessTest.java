package ballot.cql.statement;

import static ballot.cql.access.Permission.ALTER;
import static ballot.cql.access.Permission.AUTHORIZE;
import static ballot.cql.access.Permission.CREATE;
import static ballot.cql.access.Permission.DROP;
import static ballot.cql.access.Permission.MODIFY;
import static ballot.cql.access.Permission.SELECT;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.access.Access;
import ballot.cql.access.DataResource;
import ballot.cql.access.Permission;
import ballot.cql.access.Resource;
import ballot.cql.access.RoleResource;
import ballot.cql.parse.Parser;
import ballot.cql.schema.Schema;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What each statement needs of the role that runs it, as Cassandra 5.0's statements authorize. */
class StatementAccessTest {
    private static final DataResource T = DataResource.table("ks", "t");
    private static final DataResource KS = DataResource.keyspace("ks");
    private final Schema schema = new Schema(new TreeMap<>(), UUID.randomUUID());

    private List<Access> of(String cql) {
        return StatementAccess.of(Parser.parse(cql).statement(), "ks", schema);
    }

    private static Access access(Permission permission, Resource resource) {
        return new Access(permission, resource);
    }

    @Test
    void readsNeedSelectAndWritesModify() {
        assertThat(of("SELECT * FROM t WHERE k = 1")).containsExactly(access(SELECT, T));
        assertThat(of("SELECT * FROM other.u")).containsExactly(access(SELECT, DataResource.table("other", "u")));
        assertThat(of("INSERT INTO t (k, v) VALUES (1, 1)")).containsExactly(access(MODIFY, T));
        assertThat(of("UPDATE ks.t SET v = 1 WHERE k = 1")).containsExactly(access(MODIFY, T));
        assertThat(of("DELETE FROM t WHERE k = 1")).containsExactly(access(MODIFY, T));
        assertThat(of("TRUNCATE t")).containsExactly(access(MODIFY, T));
        assertThat(of("USE ks")).isEmpty();
    }

    @Test
    void aConditionalWriteNeedsSelectToo() {
        assertThat(of("INSERT INTO t (k, v) VALUES (1, 1) IF NOT EXISTS")).containsExactly(access(MODIFY, T), access(SELECT, T));
        assertThat(of("UPDATE t SET v = 2 WHERE k = 1 IF v = 1")).containsExactly(access(MODIFY, T), access(SELECT, T));
        assertThat(of("DELETE FROM t WHERE k = 1 IF EXISTS")).containsExactly(access(MODIFY, T), access(SELECT, T));
    }

    @Test
    void aBatchNeedsWhatEachMemberNeeds() {
        assertThat(of("BEGIN BATCH INSERT INTO t (k, v) VALUES (1, 1); INSERT INTO u (k, v) VALUES (1, 1) IF NOT EXISTS; APPLY BATCH"))
                .containsExactly(access(MODIFY, T), access(MODIFY, DataResource.table("ks", "u")), access(SELECT, DataResource.table("ks", "u")));
    }

    @Test
    void aTransactionNeedsSelectForItsReadsAndModifyForItsWrites() {
        assertThat(of("BEGIN TRANSACTION LET a = (SELECT v FROM t WHERE k = 1); SELECT v FROM r WHERE k = 1; "
                + "IF a.v = 1 THEN UPDATE u SET v = 2 WHERE k = 1; END IF COMMIT TRANSACTION"))
                .containsExactly(access(SELECT, T), access(SELECT, DataResource.table("ks", "r")), access(MODIFY, DataResource.table("ks", "u")));
    }

    @Test
    void schemaChangesNeedCreateOnTheParentAndAlterOrDropOnTheObject() {
        assertThat(of("CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"))
                .containsExactly(access(CREATE, DataResource.ALL_KEYSPACES));
        assertThat(of("ALTER KEYSPACE ks WITH durable_writes = false")).containsExactly(access(ALTER, KS));
        assertThat(of("DROP KEYSPACE ks")).containsExactly(access(DROP, KS));
        assertThat(of("CREATE TABLE t (k int PRIMARY KEY)")).containsExactly(access(CREATE, KS));
        assertThat(of("ALTER TABLE t ADD w int")).containsExactly(access(ALTER, T));
        assertThat(of("DROP TABLE ks.t")).containsExactly(access(DROP, T));
        assertThat(of("CREATE TYPE ty (a int)")).containsExactly(access(CREATE, KS));
        assertThat(of("DROP TYPE ty")).containsExactly(access(DROP, KS));
        assertThat(of("CREATE INDEX ON t (v)")).containsExactly(access(ALTER, T));
    }

    @Test
    void grantingNeedsAuthorizeAndWhatIsGranted() {
        assertThat(of("GRANT SELECT ON t TO r")).containsExactly(access(AUTHORIZE, T), access(SELECT, T));
        assertThat(of("REVOKE ALL ON ks.t FROM r")).containsExactly(access(AUTHORIZE, T), access(ALTER, T), access(DROP, T),
                access(SELECT, T), access(MODIFY, T), access(AUTHORIZE, T));
        assertThat(of("GRANT CREATE ON ALL KEYSPACES TO r"))
                .containsExactly(access(AUTHORIZE, DataResource.ALL_KEYSPACES), access(CREATE, DataResource.ALL_KEYSPACES));
        assertThat(of("GRANT DESCRIBE ON ALL ROLES TO r")).containsExactly(access(AUTHORIZE, RoleResource.ALL_ROLES),
                access(Permission.DESCRIBE, RoleResource.ALL_ROLES));
        assertThat(of("LIST ALL OF r")).isEmpty();
    }

    @Test
    void managingARoleNeedsPermissionsOnRoles() {
        assertThat(of("CREATE ROLE r")).containsExactly(access(CREATE, RoleResource.ALL_ROLES));
        assertThat(of("DROP USER r")).containsExactly(access(DROP, RoleResource.of("r")));
        assertThat(of("GRANT r TO s")).containsExactly(access(AUTHORIZE, RoleResource.of("r")));
        assertThat(of("REVOKE r FROM s")).containsExactly(access(AUTHORIZE, RoleResource.of("r")));
        // ALTER ROLE and LIST ROLES depend on who runs them: they decide themselves.
        assertThat(of("ALTER ROLE r WITH PASSWORD = 'p'")).isEmpty();
        assertThat(of("LIST ROLES")).isEmpty();
    }
}

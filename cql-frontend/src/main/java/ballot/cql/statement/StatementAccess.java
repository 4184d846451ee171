package ballot.cql.statement;

import ballot.cql.access.Access;
import ballot.cql.access.DataResource;
import ballot.cql.access.Permission;
import ballot.cql.access.Resource;
import ballot.cql.access.RoleResource;
import ballot.cql.parse.QualifiedName;
import ballot.cql.parse.Statement;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a statement needs of the role that runs it, as Cassandra 5.0's statements ask in their {@code authorize}
 * (docs/security.md, "Which statement needs what"). Read from the parsed statement once it has been prepared (so its
 * names are known to be valid), and kept with a prepared statement for every execution. ALTER ROLE, LIST ROLES and
 * LIST PERMISSIONS decide themselves, since what they need depends on who runs them; USE and DESCRIBE need nothing.
 */
public final class StatementAccess {
    private StatementAccess() {}

    /** The accesses {@code statement} needs; {@code keyspace} is the client's keyspace (or null), {@code schema} the current one. */
    public static List<Access> of(Statement statement, String keyspace, Schema schema) {
        List<Access> needed = new ArrayList<>();
        add(needed, statement, keyspace, schema);
        return List.copyOf(needed);
    }

    private static void add(List<Access> needed, Statement statement, String keyspace, Schema schema) {
        if (statement instanceof Statement.Select s) {
            needed.add(new Access(Permission.SELECT, table(s.table(), keyspace)));
        } else if (statement instanceof Statement.Modification m) {
            modification(needed, m, keyspace);
        } else if (statement instanceof Statement.Batch b) {
            for (Statement.Modification m : b.statements()) modification(needed, m, keyspace);
        } else if (statement instanceof Statement.Transaction t) {
            for (Statement.Let let : t.lets()) needed.add(new Access(Permission.SELECT, table(let.select().table(), keyspace)));
            if (t.returning() instanceof Statement.ReturningSelect r) needed.add(new Access(Permission.SELECT, table(r.select().table(), keyspace)));
            for (Statement.Modification m : t.updates()) needed.add(new Access(Permission.MODIFY, table(m.table(), keyspace)));
        } else if (statement instanceof Statement.Truncate t) {
            needed.add(new Access(Permission.MODIFY, table(t.name(), keyspace)));
        } else if (statement instanceof Statement.CreateKeyspace) {
            needed.add(new Access(Permission.CREATE, DataResource.ALL_KEYSPACES));
        } else if (statement instanceof Statement.AlterKeyspace s) {
            needed.add(new Access(Permission.ALTER, DataResource.keyspace(s.name())));
        } else if (statement instanceof Statement.DropKeyspace s) {
            needed.add(new Access(Permission.DROP, DataResource.keyspace(s.name())));
        } else if (statement instanceof Statement.CreateTable s) {
            needed.add(new Access(Permission.CREATE, DataResource.keyspace(Preparer.keyspaceOf(s.name(), keyspace))));
        } else if (statement instanceof Statement.AlterTable s) {
            needed.add(new Access(Permission.ALTER, table(s.name(), keyspace)));
        } else if (statement instanceof Statement.DropTable s) {
            needed.add(new Access(Permission.DROP, table(s.name(), keyspace)));
        } else if (statement instanceof Statement.CreateType s) {
            needed.add(new Access(Permission.CREATE, DataResource.keyspace(Preparer.keyspaceOf(s.name(), keyspace))));
        } else if (statement instanceof Statement.AlterType s) {
            needed.add(new Access(Permission.ALTER, DataResource.keyspace(Preparer.keyspaceOf(s.name(), keyspace))));
        } else if (statement instanceof Statement.DropType s) {
            needed.add(new Access(Permission.DROP, DataResource.keyspace(Preparer.keyspaceOf(s.name(), keyspace))));
        } else if (statement instanceof Statement.CreateIndex s) {
            // As Cassandra: an index is a change of its table, so ALTER on the table.
            String indexKeyspace = s.table().keyspace() == null && s.name() != null && s.name().keyspace() != null ? s.name().keyspace()
                    : Preparer.keyspaceOf(s.table(), keyspace);
            needed.add(new Access(Permission.ALTER, DataResource.table(indexKeyspace, s.table().name())));
        } else if (statement instanceof Statement.DropIndex s) {
            KeyspaceMetadata ks = schema.keyspace(Preparer.keyspaceOf(s.name(), keyspace));
            TableMetadata table = ks == null ? null : ks.tableOfIndex(s.name().name());
            if (table != null) needed.add(new Access(Permission.ALTER, DataResource.table(table.keyspace(), table.name())));
        } else if (statement instanceof Statement.CreateRole) {
            needed.add(new Access(Permission.CREATE, RoleResource.ALL_ROLES));
        } else if (statement instanceof Statement.DropRole s) {
            needed.add(new Access(Permission.DROP, RoleResource.of(s.name())));
        } else if (statement instanceof Statement.GrantRole s) {
            needed.add(new Access(Permission.AUTHORIZE, RoleResource.of(s.role())));
        } else if (statement instanceof Statement.GrantPermission s) {
            // Cassandra: AUTHORIZE on the resource, and each permission given or taken away, so none is passed on unheld.
            Resource resource = resource(s.on(), keyspace);
            needed.add(new Access(Permission.AUTHORIZE, resource));
            for (Permission p : permissions(s.permission(), resource)) needed.add(new Access(p, resource));
        }
    }

    private static void modification(List<Access> needed, Statement.Modification m, String keyspace) {
        DataResource table = table(m.table(), keyspace);
        needed.add(new Access(Permission.MODIFY, table));
        // A conditional write reads the row it compares, so it needs SELECT too (Cassandra's ModificationStatement).
        if (m.isConditional()) needed.add(new Access(Permission.SELECT, table));
    }

    /** The resource of GRANT, REVOKE or LIST PERMISSIONS: a table without a keyspace is in the client's keyspace. */
    static Resource resource(Statement.ResourceName name, String keyspace) {
        if (name instanceof Statement.ResourceName.Table t) return table(t.name(), keyspace);
        if (name instanceof Statement.ResourceName.Keyspace k) return DataResource.keyspace(k.name());
        if (name instanceof Statement.ResourceName.Role r) return RoleResource.of(r.name());
        if (name instanceof Statement.ResourceName.AllRoles) return RoleResource.ALL_ROLES;
        return DataResource.ALL_KEYSPACES;
    }

    /** The permissions named by GRANT, REVOKE or LIST: {@code permission}, or all that apply to {@code resource} (null: ALL). */
    static Set<Permission> permissions(Permission permission, Resource resource) {
        return permission == null ? resource.applicablePermissions() : EnumSet.of(permission);
    }

    private static DataResource table(QualifiedName name, String keyspace) {
        return DataResource.table(Preparer.keyspaceOf(name, keyspace), name.name());
    }
}

package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.UserTypes;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * CREATE, ALTER and DROP TYPE. A type change is propagated by rebuilding the keyspace: every type and every column type
 * is re-resolved from its CQL spelling, so tables and other types see the new definition.
 */
final class TypeStatements {
    private TypeStatements() {}

    /** Resolves type names within {@code ks}; user types are only usable in the keyspace that defines them. */
    static UserTypeResolver resolver(KeyspaceMetadata ks) {
        return new UserTypeResolver() {
            public UserType resolve(String keyspace, String name) {
                if (keyspace != null && !keyspace.equals(ks.name())) {
                    throw new InvalidRequestException("Statement on keyspace " + ks.name() + " cannot refer to a user type in keyspace "
                            + keyspace + "; user types can only be used in the keyspace they are defined in");
                }
                return (UserType) ks.type(name);
            }

            public String currentKeyspace() {
                return ks.name();
            }
        };
    }

    static SchemaStatement create(Statement.CreateType s, String keyspace) {
        SchemaStatement.checkUserKeyspace(keyspace);
        String name = s.name().name(); // any name, quoted as needed: Cassandra checks none (unlike table names)
        Set<String> seen = new HashSet<>();
        for (String field : s.fieldNames()) {
            if (!seen.add(field)) throw new InvalidRequestException("Duplicate field name '" + field + "' in type '" + name + "'");
        }
        if (CqlTypes.nativeType(name) != null) throw new InvalidRequestException("Type name " + name + " is reserved");
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = keyspace(current, keyspace);
                if (ks.type(name) != null) {
                    if (s.ifNotExists()) return current;
                    throw new InvalidRequestException("A user type with name '" + name + "' already exists");
                }
                // Read against the types that exist before it, so a type naming itself is an unknown type, as in Cassandra
                for (String field : s.fieldTypes()) checkFieldType(CqlTypes.parse(field, resolver(ks)));
                Map<String, UserTypes.Definition> definitions = definitions(ks);
                definitions.put(name, new UserTypes.Definition(s.fieldNames(), s.fieldTypes()));
                return with(current, checkedDepth(UserTypes.rebuild(ks, definitions), name));
            }

            SchemaChange change() {
                return SchemaChange.type(SchemaChange.Change.CREATED, keyspace, name);
            }
        };
    }

    static SchemaStatement alter(Statement.AlterType s, String keyspace) {
        SchemaStatement.checkUserKeyspace(keyspace);
        String name = s.name().name();
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = keyspace(current, keyspace);
                UserType type = (UserType) ks.type(name);
                if (type == null) {
                    if (s.ifExists()) return current;
                    throw new InvalidRequestException("Type " + keyspace + "." + name + " doesn't exist");
                }
                UserTypes.Definition old = UserTypes.Definition.of(type);
                List<String> names = new ArrayList<>(old.fieldNames());
                List<String> types = new ArrayList<>(old.fieldTypes());
                if (s.action() instanceof Statement.AddField add) {
                    if (names.contains(add.name())) {
                        if (add.ifNotExists()) return current;
                        throw new InvalidRequestException("Cannot add field " + add.name() + " to type " + keyspace + "." + name
                                + ": a field with name " + add.name() + " already exists");
                    }
                    CqlType fieldType = CqlTypes.parse(add.type(), resolver(ks));
                    checkFieldType(fieldType);
                    if (references(fieldType, name)) {
                        throw new InvalidRequestException("Cannot add new field " + add.name() + " of type " + fieldType.cqlName() + " to user type "
                                + keyspace + "." + name + " as it would create a circular reference");
                    }
                    names.add(add.name());
                    types.add(add.type());
                } else {
                    Statement.RenameFields rename = (Statement.RenameFields) s.action();
                    for (int i = 0; i < rename.from().size(); i++) {
                        int index = names.indexOf(rename.from().get(i));
                        if (index < 0) {
                            if (rename.ifExists()) continue;
                            // sic: Cassandra's spelling, and its naming of the keyspace for the type below
                            throw new InvalidRequestException("Unkown field " + rename.from().get(i) + " in user type " + keyspace + "." + name);
                        }
                        if (names.contains(rename.to().get(i))) {
                            throw new InvalidRequestException("Duplicate field name " + rename.to().get(i) + " in type " + keyspace);
                        }
                        names.set(index, rename.to().get(i));
                    }
                }
                if (names.equals(old.fieldNames()) && types.equals(old.fieldTypes())) return current;
                Map<String, UserTypes.Definition> definitions = definitions(ks);
                definitions.put(name, new UserTypes.Definition(names, types));
                return with(current, checkedDepth(UserTypes.rebuild(ks, definitions), name));
            }

            SchemaChange change() {
                return SchemaChange.type(SchemaChange.Change.UPDATED, keyspace, name);
            }
        };
    }

    static SchemaStatement drop(Statement.DropType s, String keyspace) {
        SchemaStatement.checkUserKeyspace(keyspace);
        String name = s.name().name();
        return new SchemaStatement() {
            Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
                KeyspaceMetadata ks = current.get(keyspace);
                if (ks == null || ks.type(name) == null) {
                    if (s.ifExists()) return current;
                    throw new InvalidRequestException("Type '" + keyspace + "." + name + "' doesn't exist");
                }
                List<String> types = new ArrayList<>();
                for (CqlType other : ks.types().values()) {
                    UserType u = (UserType) other;
                    if (!u.name().equals(name) && references(u, name)) types.add(u.name());
                }
                checkUnused(keyspace, name, "user types", types);
                List<String> tables = new ArrayList<>();
                for (TableMetadata t : ks.tables().values()) {
                    if (t.columns().stream().anyMatch(c -> references(c.type(), name))) tables.add(t.name());
                }
                checkUnused(keyspace, name, "tables", tables);
                Map<String, CqlType> remaining = new TreeMap<>(ks.types());
                remaining.remove(name);
                return with(current, ks.withTypes(remaining, ks.tables()));
            }

            SchemaChange change() {
                return SchemaChange.type(SchemaChange.Change.DROPPED, keyspace, name);
            }
        };
    }

    private static void checkUnused(String keyspace, String name, String users, List<String> names) {
        if (!names.isEmpty()) {
            throw new InvalidRequestException("Cannot drop user type '" + keyspace + "." + name + "' as it is still used by " + users + " "
                    + String.join(", ", names));
        }
    }

    /** A field of a user type may hold a user type only frozen, as in Cassandra. */
    private static void checkFieldType(CqlType type) {
        if (type.kind() == CqlType.Kind.UDT && type.isMultiCell()) throw new InvalidRequestException("A user type cannot contain non-frozen UDTs");
    }

    /** True if {@code type} is or contains the user type {@code name}. */
    static boolean references(CqlType type, String name) {
        if (type instanceof UserType u && u.name().equals(name)) return true;
        for (CqlType c : CqlTypes.components(type)) if (references(c, name)) return true;
        return false;
    }

    /**
     * {@code ks} with the created or altered type {@code name}, refused if that type, or a type or column that contains
     * it, now nests too deep.
     */
    private static KeyspaceMetadata checkedDepth(KeyspaceMetadata ks, String name) {
        CqlTypes.checkDepth(ks.type(name), "Type " + name);
        ks.types().forEach((other, type) -> {
            if (references(type, name)) CqlTypes.checkDepth(type, "Type " + other);
        });
        for (TableMetadata table : ks.tables().values()) {
            for (ColumnMetadata column : table.columns()) {
                if (references(column.type(), name))
                    CqlTypes.checkDepth(column.type(), "The type of column " + column.name() + " of table " + table.name());
            }
        }
        return ks;
    }

    private static Map<String, UserTypes.Definition> definitions(KeyspaceMetadata ks) {
        return UserTypes.definitions(ks);
    }
}

package ballot.cql.schema;

import ballot.cql.error.InvalidRequestException;
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
 * User-defined types of a keyspace as definitions (field names and CQL type strings), and the rebuild that resolves
 * them: every type and every column type is re-resolved from its CQL spelling, so a changed type reaches every table
 * and type that uses it. Types may only refer to types of their own keyspace, and not to themselves.
 */
public final class UserTypes {
    private UserTypes() {}

    /** A type as names and CQL type strings. */
    public record Definition(List<String> fieldNames, List<String> fieldTypes) {
        public static Definition of(UserType type) {
            List<String> types = new ArrayList<>();
            for (CqlType t : type.fieldTypes()) types.add(t.cqlName());
            return new Definition(type.fieldNames(), types);
        }
    }

    public static Map<String, Definition> definitions(KeyspaceMetadata ks) {
        Map<String, Definition> out = new LinkedHashMap<>();
        for (Map.Entry<String, CqlType> e : ks.types().entrySet()) out.put(e.getKey(), Definition.of((UserType) e.getValue()));
        return out;
    }

    /**
     * A resolver over {@code definitions} of keyspace {@code keyspace}: resolves each type once, on first use, and
     * refuses references to other keyspaces and cycles.
     */
    public static UserTypeResolver resolver(String keyspace, Map<String, Definition> definitions) {
        Map<String, UserType> resolved = new LinkedHashMap<>();
        Set<String> resolving = new HashSet<>();
        return new UserTypeResolver() {
            public UserType resolve(String ks, String name) {
                if (ks != null && !ks.equals(keyspace)) {
                    throw new InvalidRequestException("Statement on keyspace " + keyspace + " cannot refer to a user type in keyspace "
                            + ks + "; user types can only be used in the keyspace they are defined in");
                }
                UserType done = resolved.get(name);
                if (done != null) return done;
                Definition d = definitions.get(name);
                if (d == null) return null;
                if (!resolving.add(name)) throw new InvalidRequestException("Type " + name + " cannot refer to itself");
                List<CqlType> fieldTypes = new ArrayList<>();
                for (String t : d.fieldTypes()) fieldTypes.add(CqlTypes.parse(t, this));
                UserType type = CqlTypes.userType(keyspace, name, d.fieldNames(), fieldTypes, false);
                resolving.remove(name);
                resolved.put(name, type);
                return type;
            }

            public String currentKeyspace() {
                return keyspace;
            }
        };
    }

    /** All types of {@code definitions}, resolved. */
    public static Map<String, CqlType> resolveAll(UserTypeResolver resolver, Map<String, Definition> definitions) {
        Map<String, CqlType> types = new TreeMap<>();
        for (String name : definitions.keySet()) types.put(name, resolver.resolve(null, name));
        return types;
    }

    /** Re-resolves every type and column of {@code ks} against {@code definitions}. */
    public static KeyspaceMetadata rebuild(KeyspaceMetadata ks, Map<String, Definition> definitions) {
        UserTypeResolver resolver = resolver(ks.name(), definitions);
        Map<String, CqlType> types = resolveAll(resolver, definitions);
        Map<String, TableMetadata> tables = new TreeMap<>();
        for (TableMetadata t : ks.tables().values()) {
            List<ColumnMetadata> columns = new ArrayList<>();
            for (ColumnMetadata c : t.columns()) columns.add(c.withType(CqlTypes.parse(c.type().cqlName(), resolver)));
            tables.put(t.name(), t.withColumns(columns, t.dropped(), t.nextColumnId()));
        }
        return ks.withTypes(types, tables);
    }
}

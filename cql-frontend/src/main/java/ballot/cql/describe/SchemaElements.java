package ballot.cql.describe;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.SystemKeyspaceNames;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.TupleType;
import ballot.cql.type.UserType;
import ballot.cql.type.VectorType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The schema as DESCRIBE walks it: which keyspaces there are, in which order their elements come, and the errors for
 * names that are not there. Pure functions of a {@link Schema} snapshot.
 */
final class SchemaElements {
    /**
     * Cassandra's {@code SchemaElement.NAME_COMPARATOR} (case-insensitive on the unquoted name), then by exact name so
     * that names differing only in case come in a fixed order.
     */
    static final Comparator<String> NAME_ORDER = String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder());

    private SchemaElements() {}

    static boolean isVirtual(String keyspace) {
        return SystemKeyspaceNames.VIRTUAL.contains(keyspace);
    }

    static boolean isSystem(String keyspace) {
        return SystemKeyspaceNames.ALL.contains(keyspace.toLowerCase(Locale.ROOT));
    }

    /** Every keyspace (distributed, local and virtual) in name order. */
    static Stream<KeyspaceMetadata> keyspaces(Schema schema) {
        return schema.keyspaces().values().stream().sorted(Comparator.comparing(KeyspaceMetadata::name, NAME_ORDER));
    }

    /** The keyspace, or Cassandra's error for a missing one. */
    static KeyspaceMetadata keyspace(Schema schema, String name) {
        KeyspaceMetadata ks = schema.keyspace(name);
        if (ks == null) throw new InvalidRequestException("'" + name + "' not found in keyspaces");
        return ks;
    }

    /** The keyspace a statement names, else the session's; it is an error to have neither. */
    static String keyspaceName(String named, String current) {
        if (named != null) return named;
        if (current == null) throw new InvalidRequestException("No keyspace specified and no current keyspace");
        return current;
    }

    static SchemaElement of(KeyspaceMetadata ks) {
        boolean virtual = isVirtual(ks.name());
        return new SchemaElement(ks.name(), SchemaElement.Type.KEYSPACE, ks.name(), internals -> CreateStatements.keyspace(ks, virtual));
    }

    static SchemaElement of(TableMetadata table) {
        boolean virtual = isVirtual(table.keyspace());
        return new SchemaElement(table.keyspace(), SchemaElement.Type.TABLE, table.name(),
                internals -> CreateStatements.table(table, virtual, internals));
    }

    static SchemaElement of(UserType type) {
        return new SchemaElement(type.keyspace(), SchemaElement.Type.TYPE, type.name(), internals -> CreateStatements.type(type));
    }

    static SchemaElement of(TableMetadata table, IndexMetadata index) {
        return new SchemaElement(table.keyspace(), SchemaElement.Type.INDEX, index.name(), internals -> CreateStatements.index(table, index));
    }

    /** The tables of {@code ks} in name order, as DESCRIBE TABLES lists them. */
    static Stream<SchemaElement> tables(KeyspaceMetadata ks) {
        return ks.tables().values().stream().sorted(Comparator.comparing(TableMetadata::name, NAME_ORDER)).map(SchemaElements::of);
    }

    /** A table followed by its indexes in name order, as DESCRIBE TABLE and DESCRIBE KEYSPACE print them. */
    static Stream<SchemaElement> tableWithIndexes(TableMetadata table) {
        return Stream.concat(Stream.of(of(table)), table.indexes().stream()
                .sorted(Comparator.comparing(IndexMetadata::name, NAME_ORDER)).map(index -> of(table, index)));
    }

    /** The user types of {@code ks} in name order, as DESCRIBE TYPES lists them. */
    static Stream<SchemaElement> types(KeyspaceMetadata ks) {
        return ks.types().values().stream().map(UserType.class::cast)
                .sorted(Comparator.comparing(UserType::name, NAME_ORDER)).map(SchemaElements::of);
    }

    /**
     * The user types of {@code ks} in an order that creates each after the types it uses (Cassandra's
     * {@code Types.sortedStream}): by name as UTF-8 bytes, each preceded by its not yet listed dependencies.
     */
    static Stream<SchemaElement> typesInCreateOrder(KeyspaceMetadata ks) {
        Set<String> ordered = new LinkedHashSet<>();
        ks.types().values().stream().map(UserType.class::cast)
                .sorted((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8), b.name().getBytes(StandardCharsets.UTF_8)))
                .forEach(t -> addWithDependencies(t, ordered));
        return ordered.stream().filter(name -> ks.type(name) != null).map(name -> of((UserType) ks.type(name)));
    }

    private static void addWithDependencies(CqlType type, Set<String> ordered) {
        switch (type.kind()) {
            case LIST -> addWithDependencies(((ListType) type).elements(), ordered);
            case SET -> addWithDependencies(((SetType) type).elements(), ordered);
            case MAP -> {
                addWithDependencies(((MapType) type).keys(), ordered);
                addWithDependencies(((MapType) type).values(), ordered);
            }
            case TUPLE -> ((TupleType) type).fieldTypes().forEach(t -> addWithDependencies(t, ordered));
            case VECTOR -> addWithDependencies(((VectorType) type).elements(), ordered);
            case UDT -> {
                UserType udt = (UserType) type;
                udt.fieldTypes().forEach(t -> addWithDependencies(t, ordered));
                ordered.add(udt.name());
            }
            default -> { }
        }
    }

    /**
     * DESCRIBE KEYSPACE: the keyspace, then (unless {@code onlyKeyspace}) its types, functions and aggregates, then
     * each table followed by its indexes and views. Ballot has no functions, aggregates or views.
     */
    static Stream<SchemaElement> keyspaceContents(KeyspaceMetadata ks, boolean onlyKeyspace) {
        Stream<SchemaElement> keyspace = Stream.of(of(ks));
        if (onlyKeyspace) return keyspace;
        Stream<SchemaElement> tables = ks.tables().values().stream().sorted(Comparator.comparing(TableMetadata::name, NAME_ORDER))
                .flatMap(SchemaElements::tableWithIndexes);
        return Stream.of(keyspace, typesInCreateOrder(ks), tables).flatMap(s -> s);
    }
}

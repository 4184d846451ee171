package ballot.cql.index;

import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.IndexTarget;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.MapType;
import ballot.cql.type.VectorType;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rules of Cassandra 5.0's storage-attached index that Ballot follows: which class names select it, which options
 * and column types it accepts ({@code StorageAttachedIndex.validateOptions}), and which operators an index serves
 * ({@code IndexTermType.supports}).
 */
public final class StorageAttachedIndex {
    public static final String CLASS = "org.apache.cassandra.index.sai.StorageAttachedIndex";
    /** The class name a CREATE INDEX without USING stores (Cassandra's {@code default_secondary_index: sai}). */
    public static final String DEFAULT_NAME = "sai";
    /** The legacy table-backed index a plain CREATE INDEX USING names; Ballot does not have it. */
    public static final String LEGACY_NAME = "legacy_local_table";

    private static final Set<String> VALID_OPTIONS = Set.of(IndexMetadata.TARGET, IndexMetadata.CLASS_NAME,
            TextAnalyzer.CASE_SENSITIVE, TextAnalyzer.NORMALIZE, TextAnalyzer.ASCII, VectorSimilarity.OPTION, VectorSimilarity.OPTIMIZE_FOR);
    private static final Set<String> VECTOR_OPTIONS = Set.of(VectorSimilarity.OPTION, VectorSimilarity.OPTIMIZE_FOR);
    private static final Set<CqlType.Kind> SUPPORTED = EnumSet.of(CqlType.Kind.ASCII, CqlType.Kind.BIGINT, CqlType.Kind.DATE,
            CqlType.Kind.DOUBLE, CqlType.Kind.FLOAT, CqlType.Kind.INT, CqlType.Kind.SMALLINT, CqlType.Kind.TEXT, CqlType.Kind.TIME,
            CqlType.Kind.TIMESTAMP, CqlType.Kind.TIMEUUID, CqlType.Kind.TINYINT, CqlType.Kind.UUID, CqlType.Kind.INET,
            CqlType.Kind.VARINT, CqlType.Kind.DECIMAL, CqlType.Kind.BOOLEAN);
    /** Types whose index answers equality only (SAI's literal and EQ-only types). */
    private static final Set<CqlType.Kind> EQUALITY_ONLY = EnumSet.of(CqlType.Kind.ASCII, CqlType.Kind.TEXT, CqlType.Kind.BOOLEAN,
            CqlType.Kind.UUID);

    private StorageAttachedIndex() {}

    /** Whether {@code className} selects SAI: its full name, or (in any case) {@code sai} or {@code StorageAttachedIndex}. */
    public static boolean isClass(String className) {
        String lower = className.toLowerCase(Locale.ROOT);
        return className.equals(CLASS) || lower.equals(DEFAULT_NAME) || lower.equals("storageattachedindex");
    }

    /**
     * Checks a new index of {@code table} (which already lists it, as Cassandra's validation sees the table): its
     * options, that no other storage-attached index has the same target, the column type and the analyzer options.
     */
    public static void validate(TableMetadata table, IndexMetadata index) {
        Set<String> unknown = new TreeSet<>(index.options().keySet());
        unknown.removeAll(VALID_OPTIONS);
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("Properties specified " + unknown + " are not understood by StorageAttachedIndex");
        }
        IndexTarget target = index.target();
        long sameTarget = table.indexes().stream().filter(i -> isClass(i.className()) && i.target().equals(target)).count();
        if (sameTarget > 1) {
            throw new InvalidRequestException("Cannot create more than one storage-attached index on the same column: " + target.column());
        }
        ColumnMetadata column = table.column(target.column());
        CqlType termType = IndexTerms.termType(column.type(), target.type());
        Map<String, String> analysis = new TreeMap<>(index.analyzerOptions());
        Map<String, String> vectorOptions = new TreeMap<>(analysis);
        analysis.keySet().removeAll(VECTOR_OPTIONS);
        vectorOptions.keySet().retainAll(VECTOR_OPTIONS);
        if (termType instanceof VectorType vector) {
            // an index on a vector is an ANN index, of float vectors only
            if (vector.elements().kind() != CqlType.Kind.FLOAT) {
                throw new InvalidRequestException("SAI ANN indexes are only allowed on vector columns with float elements");
            }
            VectorSimilarity.validate(vectorOptions);
        } else if (!vectorOptions.isEmpty()) {
            throw new InvalidRequestException("CQL type " + (termType == null ? "entries" : termType.cqlName()) + " cannot have vector options");
        } else if (termType == null) {
            MapType map = (MapType) column.type();
            checkSupported(map.keys());
            checkSupported(map.values());
        } else {
            checkSupported(termType);
        }
        if (column.isPrimaryKey() && !analysis.isEmpty()) {
            throw new InvalidRequestException("Analysis options are not supported on primary key columns, but found " + cqlMap(analysis));
        }
        validateAnalyzer(termType, analysis);
    }

    private static void checkSupported(CqlType type) {
        boolean frozen = !type.isMultiCell() && (type.isCollection() || type.kind() == CqlType.Kind.TUPLE || type.kind() == CqlType.Kind.UDT);
        if (!SUPPORTED.contains(type.kind()) && !frozen) throw new InvalidRequestException("Unsupported type: " + type.cqlName());
    }

    /** SAI's analyzer validation: options that change nothing are accepted on any type, the others on text only. */
    private static void validateAnalyzer(CqlType termType, Map<String, String> options) {
        boolean nonDefault = false;
        for (Map.Entry<String, String> e : options.entrySet()) {
            boolean defaultValue = e.getKey().equals(TextAnalyzer.CASE_SENSITIVE);
            nonDefault |= !Boolean.toString(defaultValue).equalsIgnoreCase(e.getValue());
        }
        if (!nonDefault) return;
        boolean text = termType != null && (termType.kind() == CqlType.Kind.TEXT || termType.kind() == CqlType.Kind.ASCII);
        if (!text) throw new InvalidRequestException("CQL type " + (termType == null ? "entries" : termType.cqlName()) + " cannot be analyzed.");
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getValue().isEmpty()) throw new InvalidRequestException("Empty value for boolean option '" + e.getKey() + "'");
            if (!e.getValue().equalsIgnoreCase("true") && !e.getValue().equalsIgnoreCase("false")) {
                throw new InvalidRequestException("Illegal value for boolean option '" + e.getKey() + "': " + e.getValue());
            }
        }
    }

    /** A map as Cassandra's CqlBuilder prints it: {@code {'k': 'v', ...}} in key order. */
    public static String cqlMap(Map<String, String> map) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
            if (sb.length() > 1) sb.append(", ");
            sb.append(quote(e.getKey())).append(": ").append(quote(e.getValue()));
        }
        return sb.append('}').toString();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** Whether an index on {@code column} is an ANN index: one on a vector, which serves only ANN ordering. */
    public static boolean isAnn(ColumnMetadata column) {
        return column.type() instanceof VectorType;
    }

    /** Whether an index of {@code terms} answers range restrictions (not SAI's literal and equality-only types). */
    public static boolean supportsRanges(IndexTerms terms) {
        CqlType type = terms.termType();
        return terms.index().target().type() == IndexTarget.Type.SIMPLE && type != null && !type.isMultiCell()
                && !EQUALITY_ONLY.contains(type.kind()) && !isFrozen(type);
    }

    /** SAI's literal terms (system_views.sai_column_indexes.is_string): text, boolean, frozen values and map entries. */
    public static boolean isLiteral(IndexTerms terms) {
        CqlType type = terms.termType();
        return type == null || type.kind() == CqlType.Kind.TEXT || type.kind() == CqlType.Kind.ASCII
                || type.kind() == CqlType.Kind.BOOLEAN || isFrozen(type);
    }

    private static boolean isFrozen(CqlType type) {
        return switch (type.kind()) {
            case LIST, SET, MAP, TUPLE, UDT, VECTOR -> true;
            default -> false;
        };
    }
}

package ballot.cql.describe;

import ballot.cql.index.StorageAttachedIndex;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.TableParams;
import ballot.cql.type.UserType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The create statements DESCRIBE returns, byte for byte as Cassandra 5.0 prints them ({@code KeyspaceMetadata},
 * {@code UserType} and {@code TableMetadata.toCqlString}): see package-info for the layout rules and where they were
 * observed.
 */
final class CreateStatements {
    private static final String LOCATOR_PACKAGE = "org.apache.cassandra.locator.";

    /** How a table option's value is written. */
    private enum Format { LITERAL, BOOLEAN, INT, DOUBLE, MAP, HEX_MAP }

    private record Option(String name, Format format) {}

    /**
     * Cassandra 5.0's option order ({@code TableParams.appendCqlTo}): alphabetical, except that memtable comes before
     * crc_check_chance.
     */
    private static final List<Option> OPTIONS = List.of(
            new Option("additional_write_policy", Format.LITERAL),
            new Option("allow_auto_snapshot", Format.BOOLEAN),
            new Option("bloom_filter_fp_chance", Format.DOUBLE),
            new Option("caching", Format.MAP),
            new Option("cdc", Format.BOOLEAN),
            new Option("comment", Format.LITERAL),
            new Option("compaction", Format.MAP),
            new Option("compression", Format.MAP),
            new Option("memtable", Format.LITERAL),
            new Option("crc_check_chance", Format.DOUBLE),
            new Option("default_time_to_live", Format.INT),
            new Option("extensions", Format.HEX_MAP),
            new Option("gc_grace_seconds", Format.INT),
            new Option("incremental_backups", Format.BOOLEAN),
            new Option("max_index_interval", Format.INT),
            new Option("memtable_flush_period_in_ms", Format.INT),
            new Option("min_index_interval", Format.INT),
            new Option("read_repair", Format.LITERAL),
            new Option("speculative_retry", Format.LITERAL));

    /** Column names in Cassandra's order: unsigned UTF-8 bytes ({@code ColumnIdentifier.compareTo}). */
    private static final Comparator<ColumnMetadata> BY_NAME_BYTES = (a, b) -> Arrays.compareUnsigned(
            a.name().getBytes(StandardCharsets.UTF_8), b.name().getBytes(StandardCharsets.UTF_8));

    private CreateStatements() {}

    /**
     * {@code CREATE KEYSPACE ks WITH replication = {...}  AND durable_writes = b;} (two spaces before AND, as
     * Cassandra prints it), or the commented structure of a virtual keyspace.
     */
    static String keyspace(KeyspaceMetadata ks, boolean virtual) {
        CqlText cql = new CqlText();
        if (virtual) {
            return cql.append("/*").newLine()
                    .append("Warning: Keyspace ").appendName(ks.name()).append(" is a virtual keyspace and cannot be recreated with CQL.").newLine()
                    .append("Structure, for reference:").newLine()
                    .append("VIRTUAL KEYSPACE ").appendName(ks.name()).append(";").newLine()
                    .append("*/").toString();
        }
        cql.append("CREATE KEYSPACE ").appendName(ks.name()).append(" WITH replication = {'class': ")
                .appendLiteral(strategyName(ks.replication().getOrDefault("class", "")));
        new TreeMap<>(ks.replication()).forEach((key, value) -> {
            if (!key.equals("class")) cql.append(", ").appendLiteral(key).append(": ").appendLiteral(value);
        });
        return cql.append("}  AND durable_writes = ").append(ks.durableWrites()).append(";").toString();
    }

    /** Strategies of Cassandra's own locator package go by their simple name, others by their full class name. */
    private static String strategyName(String className) {
        if (className.startsWith(LOCATOR_PACKAGE) && className.indexOf('.', LOCATOR_PACKAGE.length()) < 0) {
            return className.substring(LOCATOR_PACKAGE.length());
        }
        return className;
    }

    /**
     * {@code CREATE CUSTOM INDEX name ON ks.t (target) USING 'class'}, then {@code WITH OPTIONS = {...}} when there
     * are analyzer options ({@code IndexMetadata.appendCqlTo}).
     */
    static String index(TableMetadata table, IndexMetadata index) {
        CqlText cql = new CqlText();
        cql.append("CREATE CUSTOM INDEX ").appendName(index.name()).append(" ON ")
                .append(Identifiers.qualified(table.keyspace(), table.name())).append(" (").append(index.options().get(IndexMetadata.TARGET))
                .append(") USING ").appendLiteral(index.className());
        if (!index.analyzerOptions().isEmpty()) cql.append(" WITH OPTIONS = ").append(StorageAttachedIndex.cqlMap(index.analyzerOptions()));
        return cql.append(";").toString();
    }

    /** {@code CREATE TYPE ks.t (\n    f type,\n    ...\n);} with fields in declaration order. */
    static String type(UserType type) {
        CqlText cql = new CqlText();
        cql.append("CREATE TYPE ").append(Identifiers.qualified(type.keyspace(), type.name())).append(" (").newLine().indent();
        for (int i = 0; i < type.fieldNames().size(); i++) {
            if (i > 0) cql.append(",").newLine();
            cql.appendName(type.fieldNames().get(i)).append(" ").append(type.fieldTypes().get(i).cqlName());
        }
        return cql.newLine().outdent().append(");").toString();
    }

    /**
     * {@code CREATE TABLE}, or for a virtual table its structure inside a warning comment. {@code withInternals} adds
     * the table id as the first option, dropped columns among the columns, and an {@code ALTER TABLE ... DROP ...
     * USING TIMESTAMP} line per dropped column (followed by an ADD if a column of that name exists again).
     */
    static String table(TableMetadata table, boolean virtual, boolean withInternals) {
        String name = Identifiers.qualified(table.keyspace(), table.name());
        Map<String, DroppedColumn> dropped = withInternals ? table.dropped() : Map.of();
        CqlText cql = new CqlText();
        if (virtual) {
            cql.append("/*").newLine()
                    .append("Warning: Table ").append(name).append(" is a virtual table and cannot be recreated with CQL.").newLine()
                    .append("Structure, for reference:").newLine()
                    .append("VIRTUAL");
        } else {
            cql.append("CREATE");
        }
        cql.append(" TABLE ").append(name).append(" (").newLine().indent();

        boolean inlineKey = table.partitionKey().size() == 1 && table.clustering().isEmpty();
        List<ColumnMetadata> columns = new ArrayList<>();
        // A column re-added after a drop is shown as the dropped one here and re-added after the DROP line, which
        // replays the history in order.
        for (ColumnMetadata c : createOrder(table)) if (!dropped.containsKey(c.name())) columns.add(c);
        for (int i = 0; i < columns.size(); i++) {
            ColumnMetadata c = columns.get(i);
            appendColumn(cql, c.name(), c.type().cqlName(), c.isStatic());
            if (inlineKey && c.kind() == ColumnMetadata.Kind.PARTITION_KEY) cql.append(" PRIMARY KEY");
            if (!inlineKey || !dropped.isEmpty() || i < columns.size() - 1) cql.append(",");
            cql.newLine();
        }
        List<DroppedColumn> droppedList = new ArrayList<>(dropped.values());
        for (int i = 0; i < droppedList.size(); i++) {
            DroppedColumn d = droppedList.get(i);
            appendColumn(cql, d.name(), d.type(), "static".equals(d.kind()));
            if (!inlineKey || i < droppedList.size() - 1) cql.append(",");
            cql.newLine();
        }
        if (!inlineKey) appendPrimaryKey(cql, table);
        cql.outdent().append(") WITH ").indent();
        appendOptions(cql, table, virtual, withInternals);
        cql.outdent();
        if (virtual) cql.newLine().append("*/");
        for (DroppedColumn d : droppedList) {
            cql.newLine().append("ALTER TABLE ").append(name).append(" DROP ").appendName(d.name())
                    .append(" USING TIMESTAMP ").append(d.droppedTime()).append(";");
            ColumnMetadata again = table.column(d.name());
            if (again != null) {
                cql.newLine().append("ALTER TABLE ").append(name).append(" ADD ");
                appendColumn(cql, again.name(), again.type().cqlName(), again.isStatic());
                cql.append(";");
            }
        }
        return cql.toString();
    }

    /**
     * Cassandra's {@code allColumnsInCreateOrder}: partition key and clustering in key order, then static columns, then
     * regular ones; within each of those two, single-cell columns before multi-cell (non-frozen) ones, each by name.
     */
    static List<ColumnMetadata> createOrder(TableMetadata table) {
        List<ColumnMetadata> out = new ArrayList<>(table.partitionKey());
        out.addAll(table.clustering());
        Comparator<ColumnMetadata> order = Comparator.<ColumnMetadata, Boolean>comparing(c -> c.type().isMultiCell()).thenComparing(BY_NAME_BYTES);
        for (ColumnMetadata.Kind kind : List.of(ColumnMetadata.Kind.STATIC, ColumnMetadata.Kind.REGULAR)) {
            table.columns().stream().filter(c -> c.kind() == kind).sorted(order).forEach(out::add);
        }
        return out;
    }

    private static void appendColumn(CqlText cql, String name, String type, boolean isStatic) {
        cql.appendName(name).append(" ").append(type);
        if (isStatic) cql.append(" static");
    }

    private static void appendPrimaryKey(CqlText cql, TableMetadata table) {
        cql.append("PRIMARY KEY (");
        if (table.partitionKey().size() > 1) cql.append("(").append(names(table.partitionKey())).append(")");
        else cql.appendName(table.partitionKey().get(0).name());
        if (!table.clustering().isEmpty()) cql.append(", ").append(names(table.clustering()));
        cql.append(")").newLine();
    }

    private static String names(List<ColumnMetadata> columns) {
        List<String> names = new ArrayList<>();
        for (ColumnMetadata c : columns) names.add(Identifiers.maybeQuote(c.name()));
        return String.join(", ", names);
    }

    private static void appendOptions(CqlText cql, TableMetadata table, boolean virtual, boolean withInternals) {
        if (withInternals) cql.append("ID = ").append(table.id()).newLine().append("AND ");
        if (!table.clustering().isEmpty()) {
            List<String> order = new ArrayList<>();
            for (ColumnMetadata c : table.clustering()) order.add(Identifiers.maybeQuote(c.name()) + (c.descending() ? " DESC" : " ASC"));
            cql.append("CLUSTERING ORDER BY (").append(String.join(", ", order)).append(")").newLine().append("AND ");
        }
        TableParams params = table.params();
        if (virtual) {
            cql.append("comment = ").appendLiteral(params.comment());
        } else {
            for (int i = 0; i < OPTIONS.size(); i++) {
                Option option = OPTIONS.get(i);
                if (i > 0) cql.newLine().append("AND ");
                cql.append(option.name()).append(" = ");
                appendValue(cql, option, params.get(option.name()));
            }
        }
        cql.append(";");
    }

    @SuppressWarnings("unchecked")
    private static void appendValue(CqlText cql, Option option, Object value) {
        if (value == null) throw new IllegalStateException("table option " + option.name() + " has no value");
        switch (option.format()) {
            case LITERAL -> cql.appendLiteral(value.toString());
            case BOOLEAN -> cql.append(value.toString());
            case INT -> cql.append(((Number) value).intValue());
            case DOUBLE -> cql.append(((Number) value).doubleValue());
            case MAP -> cql.appendMap((Map<String, String>) value, true);
            case HEX_MAP -> {
                // Extension values are blobs in Cassandra; Ballot keeps them as text, stored as its UTF-8 bytes.
                Map<String, String> hex = new HashMap<>();
                ((Map<String, String>) value).forEach((k, v) -> hex.put(k, "0x" + hex(v.getBytes(StandardCharsets.UTF_8))));
                cql.appendMap(hex, false);
            }
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        return sb.toString();
    }
}

package ballot.cql.schema;

import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The durable form of a keyspace definition: JSON with types and column types as their CQL spelling. Encoding is
 * canonical (sorted keys), so equal definitions give equal bytes on every node, which the schema version relies on.
 */
public final class SchemaJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    record ColumnJson(String name, int id, String kind, int position, String type, boolean descending) {}

    record DroppedJson(String name, String type, String kind, long droppedTime) {}

    record IndexJson(String name, String id, Map<String, String> options) {}

    /** {@code indexes} is left out when empty, so tables without indexes keep the encoding (and version) they had. */
    record TableJson(String name, String id, Map<String, Object> params, int nextColumnId, List<ColumnJson> columns,
            List<DroppedJson> dropped, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<IndexJson> indexes) {}

    record TypeJson(String name, List<String> fieldNames, List<String> fieldTypes) {}

    record KeyspaceJson(String name, Map<String, String> replication, boolean durableWrites, List<TypeJson> types,
            List<TableJson> tables) {}

    private SchemaJson() {}

    public static byte[] encode(KeyspaceMetadata ks) {
        List<TypeJson> types = new ArrayList<>();
        for (Map.Entry<String, CqlType> e : ks.types().entrySet()) {
            UserTypes.Definition d = UserTypes.Definition.of((UserType) e.getValue());
            types.add(new TypeJson(e.getKey(), d.fieldNames(), d.fieldTypes()));
        }
        List<TableJson> tables = new ArrayList<>();
        for (TableMetadata t : ks.tables().values()) {
            List<ColumnJson> columns = new ArrayList<>();
            for (ColumnMetadata c : t.columns()) {
                columns.add(new ColumnJson(c.name(), c.id(), c.kind().name(), c.position(), c.type().cqlName(), c.descending()));
            }
            List<DroppedJson> dropped = new ArrayList<>();
            for (DroppedColumn d : t.dropped().values()) dropped.add(new DroppedJson(d.name(), d.type(), d.kind(), d.droppedTime()));
            List<IndexJson> indexes = new ArrayList<>();
            for (IndexMetadata i : t.indexes()) indexes.add(new IndexJson(i.name(), i.id().toString(), i.options()));
            tables.add(new TableJson(t.name(), t.id().toString(), new TreeMap<>(t.params().values()), t.nextColumnId(), columns,
                    dropped, indexes));
        }
        try {
            return MAPPER.writeValueAsBytes(new KeyspaceJson(ks.name(), new TreeMap<>(ks.replication()), ks.durableWrites(), types, tables));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode keyspace " + ks.name() + ": " + e.getMessage(), e);
        }
    }

    public static KeyspaceMetadata decode(byte[] bytes) {
        KeyspaceJson json;
        try {
            json = MAPPER.readValue(bytes, KeyspaceJson.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("corrupt stored keyspace definition: " + e.getMessage(), e);
        }
        Map<String, UserTypes.Definition> definitions = new LinkedHashMap<>();
        for (TypeJson t : json.types()) definitions.put(t.name(), new UserTypes.Definition(t.fieldNames(), t.fieldTypes()));
        UserTypeResolver resolver = UserTypes.resolver(json.name(), definitions);
        Map<String, TableMetadata> tables = new TreeMap<>();
        for (TableJson t : json.tables()) {
            List<ColumnMetadata> columns = new ArrayList<>();
            for (ColumnJson c : t.columns()) {
                columns.add(new ColumnMetadata(c.name(), c.id(), ColumnMetadata.Kind.valueOf(c.kind()), c.position(),
                        CqlTypes.parse(c.type(), resolver), c.descending()));
            }
            Map<String, DroppedColumn> dropped = new LinkedHashMap<>();
            for (DroppedJson d : t.dropped()) dropped.put(d.name(), new DroppedColumn(d.name(), d.type(), d.kind(), d.droppedTime()));
            List<IndexMetadata> indexes = new ArrayList<>();
            if (t.indexes() != null) {
                for (IndexJson i : t.indexes()) indexes.add(new IndexMetadata(i.name(), UUID.fromString(i.id()), i.options()));
            }
            tables.put(t.name(), new TableMetadata(json.name(), t.name(), UUID.fromString(t.id()), columns,
                    TableParams.fromStored(t.params()), dropped, t.nextColumnId(), indexes));
        }
        return new KeyspaceMetadata(json.name(), json.replication(), json.durableWrites(), tables,
                UserTypes.resolveAll(resolver, definitions));
    }
}

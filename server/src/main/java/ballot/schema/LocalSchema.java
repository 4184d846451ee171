package ballot.schema;

import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.SchemaJson;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.SchemaStore;
import ballot.storage.StorageEngine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's schema: system keyspaces (defined by the node) and user keyspaces (persisted as JSON in local metadata,
 * one entry per keyspace). Changes are serialised, persisted before they become visible, and reflected in storage
 * (column families created or dropped). The version is a digest of the user keyspaces' canonical JSON, so nodes with
 * the same schema report the same version.
 */
public final class LocalSchema implements SchemaStore {
    private static final Logger log = LoggerFactory.getLogger(LocalSchema.class);
    private static final String PREFIX = "schema/keyspace/";

    private final StorageEngine storage;
    private final List<Consumer<SchemaChange>> listeners = new CopyOnWriteArrayList<>();
    private volatile Map<String, KeyspaceMetadata> system = Map.of();
    private volatile Schema schema;

    public LocalSchema(StorageEngine storage) {
        this.storage = storage;
    }

    /** Loads the persisted user keyspaces and attaches storage to their tables; {@code systemKeyspaces} are merged in. */
    public void load(Map<String, KeyspaceMetadata> systemKeyspaces) {
        this.system = Map.copyOf(systemKeyspaces);
        Map<String, KeyspaceMetadata> user = new TreeMap<>();
        storage.forEachMeta(PREFIX, (key, value) -> {
            KeyspaceMetadata ks = SchemaJson.decode(value);
            user.put(ks.name(), ks);
        });
        Set<UUID> tables = new HashSet<>();
        for (KeyspaceMetadata ks : user.values()) {
            for (TableMetadata t : ks.tables().values()) {
                storage.ensureTable(t);
                tables.add(t.id());
            }
        }
        storage.dropTablesOtherThan(tables);
        schema = snapshot(user);
        log.info("schema loaded keyspaces={} tables={} version={}", user.size(), tables.size(), schema.version());
    }

    /** Registers a listener for every schema change event (in Cassandra's order). */
    public void onChange(Consumer<SchemaChange> listener) {
        listeners.add(listener);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public synchronized Schema update(UnaryOperator<Map<String, KeyspaceMetadata>> change) {
        Map<String, KeyspaceMetadata> current = schema.keyspaces();
        Map<String, KeyspaceMetadata> next = change.apply(current);
        if (next == current || next.equals(current)) return schema;
        for (String name : system.keySet()) {
            if (next.get(name) != system.get(name)) throw new IllegalStateException("a schema change touched system keyspace " + name);
        }
        Map<String, KeyspaceMetadata> before = user(current);
        Map<String, KeyspaceMetadata> after = user(next);
        persist(before, after);
        schema = snapshot(after);
        List<SchemaChange> events = SchemaEvents.between(before, after);
        for (SchemaChange event : events) {
            log.info("schema changed change={} target={} keyspace={} name={}", event.change(), event.target(), event.keyspace(), event.name());
            for (Consumer<SchemaChange> listener : listeners) listener.accept(event);
        }
        return schema;
    }

    /** Makes {@code after} durable and brings storage in line with it (new tables first, dropped tables last). */
    private void persist(Map<String, KeyspaceMetadata> before, Map<String, KeyspaceMetadata> after) {
        for (KeyspaceMetadata ks : after.values()) {
            if (ks.equals(before.get(ks.name()))) continue;
            for (TableMetadata t : ks.tables().values()) storage.ensureTable(t);
            storage.putMeta(PREFIX + ks.name(), SchemaJson.encode(ks));
        }
        for (KeyspaceMetadata old : before.values()) {
            KeyspaceMetadata now = after.get(old.name());
            if (now == null) storage.deleteMeta(PREFIX + old.name());
            for (TableMetadata t : old.tables().values()) {
                TableMetadata still = now == null ? null : now.table(t.name());
                if (still == null || !still.id().equals(t.id())) storage.dropTable(t.id());
            }
        }
    }

    private Map<String, KeyspaceMetadata> user(Map<String, KeyspaceMetadata> all) {
        Map<String, KeyspaceMetadata> user = new TreeMap<>(all);
        user.keySet().removeAll(system.keySet());
        return user;
    }

    private Schema snapshot(Map<String, KeyspaceMetadata> user) {
        Map<String, KeyspaceMetadata> all = new TreeMap<>(system);
        all.putAll(user);
        return new Schema(all, version(user));
    }

    private static UUID version(Map<String, KeyspaceMetadata> user) {
        try {
            MessageDigest digest = MessageDigest.getInstance("MD5");
            digest.update("ballot-schema-v1".getBytes(StandardCharsets.UTF_8));
            for (KeyspaceMetadata ks : user.values()) digest.update(SchemaJson.encode(ks));
            byte[] md5 = digest.digest();
            md5[6] = (byte) (md5[6] & 0x0f | 0x30);
            md5[8] = (byte) (md5[8] & 0x3f | 0x80);
            long msb = 0;
            long lsb = 0;
            for (int i = 0; i < 8; i++) msb = msb << 8 | md5[i] & 0xff;
            for (int i = 8; i < 16; i++) lsb = lsb << 8 | md5[i] & 0xff;
            return new UUID(msb, lsb);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every JVM", e);
        }
    }
}

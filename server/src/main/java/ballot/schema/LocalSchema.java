package ballot.schema;

import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.SchemaJson;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.SchemaStore;
import ballot.storage.StorageEngine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's schema: system keyspaces (defined by the node) and user keyspaces (persisted as JSON in local metadata,
 * one entry per keyspace, with the time of its last change). Changes are serialised, persisted before they become
 * visible, and reflected in storage (column families created or dropped). Between nodes, keyspace definitions merge
 * by last change wins, drops included ({@link #merge}); the version is a digest of the user keyspaces' canonical
 * JSON, so nodes with the same schema report the same version.
 *
 * <p>A system keyspace keeps the node's tables, but its replication may be altered (ALTER KEYSPACE system_auth, which
 * the statements allow): such a change is persisted, merged and counted in the version as a user keyspace's is, and
 * only its replication and durable writes are ever taken from it.
 */
public final class LocalSchema implements SchemaStore {
    private static final Logger log = LoggerFactory.getLogger(LocalSchema.class);
    private static final String KEYSPACE = "schema/keyspace/";
    private static final String CHANGED = "schema/changed/";
    private static final String DROPPED = "schema/dropped/";
    private static final String SYSTEM_ALTERED = "schema/system/";
    private static final String SYSTEM_CHANGED = "schema/system-changed/";

    /** One keyspace as nodes exchange it: its definition (null once dropped) and when it last changed (micros). */
    public record Entry(String name, long changedAt, byte[] definition) {}

    private final StorageEngine storage;
    private final LongSupplier nowMicros;
    private final List<Consumer<Schema>> installListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<SchemaChange>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Schema>> versionListeners = new CopyOnWriteArrayList<>();
    private final Map<String, Long> changedAt = new TreeMap<>();
    private final Map<String, Long> droppedAt = new TreeMap<>();
    private volatile Map<String, KeyspaceMetadata> system = Map.of();
    /** The system keyspaces whose replication was altered, as altered, and when (micros). */
    private final Map<String, KeyspaceMetadata> systemAltered = new TreeMap<>();
    private final Map<String, Long> systemChangedAt = new TreeMap<>();
    private volatile Schema schema;

    public LocalSchema(StorageEngine storage, LongSupplier nowMicros) {
        this.storage = storage;
        this.nowMicros = nowMicros;
    }

    /**
     * Loads the persisted user keyspaces and attaches storage to their tables; {@code systemKeyspaces} are merged in,
     * and storage is attached to those of their tables that are stored ({@code storedSystemTables}).
     */
    public synchronized void load(Map<String, KeyspaceMetadata> systemKeyspaces, List<TableMetadata> storedSystemTables) {
        this.system = Map.copyOf(systemKeyspaces);
        Map<String, KeyspaceMetadata> user = new TreeMap<>();
        storage.forEachMeta(KEYSPACE, (key, value) -> {
            KeyspaceMetadata ks = SchemaJson.decode(value);
            user.put(ks.name(), ks);
        });
        storage.forEachMeta(CHANGED, (key, value) -> changedAt.put(key.substring(CHANGED.length()), ByteBuffer.wrap(value).getLong()));
        storage.forEachMeta(DROPPED, (key, value) -> droppedAt.put(key.substring(DROPPED.length()), ByteBuffer.wrap(value).getLong()));
        storage.forEachMeta(SYSTEM_ALTERED, (key, value) -> {
            KeyspaceMetadata ks = SchemaJson.decode(value);
            if (system.containsKey(ks.name())) systemAltered.put(ks.name(), replicationOf(ks));
        });
        storage.forEachMeta(SYSTEM_CHANGED, (key, value) -> systemChangedAt.put(key.substring(SYSTEM_CHANGED.length()), ByteBuffer.wrap(value).getLong()));
        Set<UUID> tables = new HashSet<>();
        for (TableMetadata t : storedSystemTables) {
            storage.ensureTable(t);
            tables.add(t.id());
        }
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

    /**
     * Registers a listener for every schema this node installs, from its own DDL or merged from a peer's: it runs once
     * the schema is durable and visible, before its change events, and before the change is acknowledged to anyone (the
     * DDL's client, or the peer that pushed it).
     */
    public void onInstall(Consumer<Schema> listener) {
        installListeners.add(listener);
    }

    /** Registers a listener for every schema change event (in Cassandra's order). */
    public void onChange(Consumer<SchemaChange> listener) {
        listeners.add(listener);
    }

    /** Registers a listener for every new schema (after it is durable and visible), for spreading it to other nodes. */
    public void onNewVersion(Consumer<Schema> listener) {
        versionListeners.add(listener);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Schema update(UnaryOperator<Map<String, KeyspaceMetadata>> change) {
        Schema next;
        synchronized (this) {
            Map<String, KeyspaceMetadata> current = schema.keyspaces();
            Map<String, KeyspaceMetadata> proposed = change.apply(current);
            if (proposed == current || proposed.equals(current)) return schema;
            long now = nowMicros.getAsLong();
            List<SchemaChange> systemEvents = new ArrayList<>();
            for (String name : system.keySet()) {
                KeyspaceMetadata was = current.get(name);
                KeyspaceMetadata is = proposed.get(name);
                if (is == was) continue;
                if (is == null || !is.tables().equals(was.tables()) || !is.types().equals(was.types()))
                    throw new IllegalStateException("a schema change touched system keyspace " + name + " beyond its replication");
                alterSystem(is, now, systemEvents);
            }
            Map<String, KeyspaceMetadata> before = user(current);
            Map<String, KeyspaceMetadata> after = user(proposed);
            Map<String, Long> stamps = new TreeMap<>();
            for (String name : union(before.keySet(), after.keySet())) {
                if (!java.util.Objects.equals(before.get(name), after.get(name))) stamps.put(name, now);
            }
            next = install(before, after, stamps, systemEvents);
        }
        announce(next);
        return next;
    }

    /** Every user keyspace and every drop this node knows of, for another node to {@link #merge}. */
    public synchronized List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        for (KeyspaceMetadata ks : user(schema.keyspaces()).values()) {
            out.add(new Entry(ks.name(), changedAt.getOrDefault(ks.name(), 0L), SchemaJson.encode(ks)));
        }
        droppedAt.forEach((name, at) -> out.add(new Entry(name, at, null)));
        systemAltered.forEach((name, ks) -> out.add(new Entry(name, systemChangedAt.getOrDefault(name, 0L), SchemaJson.encode(ks))));
        return out;
    }

    /** Adopts every entry that changed later than what this node has (ties go to the larger definition). */
    public Schema merge(List<Entry> entries) {
        Schema next;
        synchronized (this) {
            Map<String, KeyspaceMetadata> before = user(schema.keyspaces());
            Map<String, KeyspaceMetadata> after = new TreeMap<>(before);
            Map<String, Long> stamps = new TreeMap<>();
            List<SchemaChange> systemEvents = new ArrayList<>();
            for (Entry e : entries) {
                if (system.containsKey(e.name())) {
                    if (e.definition() != null && isNewerSystemChange(e)) alterSystem(SchemaJson.decode(e.definition()), e.changedAt(), systemEvents);
                    continue;
                }
                long mine = Math.max(changedAt.getOrDefault(e.name(), Long.MIN_VALUE), droppedAt.getOrDefault(e.name(), Long.MIN_VALUE));
                boolean newer = e.changedAt() > mine || e.changedAt() == mine && wins(e, before.get(e.name()));
                if (!newer) continue;
                if (e.definition() == null) {
                    if (after.remove(e.name()) != null || !droppedAt.containsKey(e.name())) stamps.put(e.name(), e.changedAt());
                } else {
                    KeyspaceMetadata ks = SchemaJson.decode(e.definition());
                    if (!ks.equals(before.get(e.name())) || !changedAt.containsKey(e.name())) {
                        after.put(e.name(), ks);
                        stamps.put(e.name(), e.changedAt());
                    }
                }
            }
            if (stamps.isEmpty() && systemEvents.isEmpty()) return schema;
            next = install(before, after, stamps, systemEvents);
        }
        announce(next);
        return next;
    }

    /** On an exact tie of change times the larger canonical definition wins, so every node picks the same one. */
    private static boolean wins(Entry remote, KeyspaceMetadata local) {
        if (local == null) return remote.definition() != null;
        if (remote.definition() == null) return false;
        return java.util.Arrays.compare(remote.definition(), SchemaJson.encode(local)) > 0;
    }

    /** Whether a peer's altered system keyspace is later than this node's (ties go to the larger definition). */
    private boolean isNewerSystemChange(Entry e) {
        Long mine = systemChangedAt.get(e.name());
        if (mine == null || e.changedAt() > mine) return true;
        return e.changedAt() == mine && java.util.Arrays.compare(e.definition(), SchemaJson.encode(systemAltered.get(e.name()))) > 0;
    }

    /** Persists a system keyspace's new replication ({@code altered}'s), changed at {@code changedAtMicros}. */
    private void alterSystem(KeyspaceMetadata altered, long changedAtMicros, List<SchemaChange> events) {
        KeyspaceMetadata replication = replicationOf(altered);
        storage.putMeta(SYSTEM_ALTERED + altered.name(), SchemaJson.encode(replication));
        storage.putMeta(SYSTEM_CHANGED + altered.name(), longBytes(changedAtMicros));
        systemAltered.put(altered.name(), replication);
        systemChangedAt.put(altered.name(), changedAtMicros);
        events.add(SchemaChange.keyspace(SchemaChange.Change.UPDATED, altered.name()));
    }

    /** What is kept of an altered system keyspace: its replication and durable writes, on the node's definition. */
    private KeyspaceMetadata replicationOf(KeyspaceMetadata altered) {
        return system.get(altered.name()).withReplication(altered.replication(), altered.durableWrites());
    }

    /**
     * Persists {@code after}, brings storage in line with it and makes it the schema, with the system keyspaces as
     * altered; returns the new schema. {@code systemEvents} are the changes of system keyspaces, announced first.
     */
    private Schema install(Map<String, KeyspaceMetadata> before, Map<String, KeyspaceMetadata> after, Map<String, Long> stamps,
            List<SchemaChange> systemEvents) {
        persist(before, after, stamps);
        schema = snapshot(after);
        for (Consumer<Schema> listener : installListeners) listener.accept(schema);
        List<SchemaChange> events = new ArrayList<>(systemEvents);
        events.addAll(SchemaEvents.between(before, after));
        for (SchemaChange event : events) {
            log.info("schema changed change={} target={} keyspace={} name={}", event.change(), event.target(), event.keyspace(), event.name());
            for (Consumer<SchemaChange> listener : listeners) listener.accept(event);
        }
        return schema;
    }

    private void announce(Schema next) {
        for (Consumer<Schema> listener : versionListeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("spreading schema version {} failed: {}", next.version(), e.toString());
            }
        }
    }

    /** Makes {@code after} durable and brings storage in line with it (new tables first, dropped tables last). */
    private void persist(Map<String, KeyspaceMetadata> before, Map<String, KeyspaceMetadata> after, Map<String, Long> stamps) {
        for (KeyspaceMetadata ks : after.values()) {
            if (!stamps.containsKey(ks.name())) continue;
            for (TableMetadata t : ks.tables().values()) storage.ensureTable(t);
            storage.putMeta(KEYSPACE + ks.name(), SchemaJson.encode(ks));
            storage.putMeta(CHANGED + ks.name(), longBytes(stamps.get(ks.name())));
            changedAt.put(ks.name(), stamps.get(ks.name()));
            if (droppedAt.remove(ks.name()) != null) storage.deleteMeta(DROPPED + ks.name());
        }
        for (KeyspaceMetadata old : before.values()) {
            KeyspaceMetadata now = after.get(old.name());
            if (now == null) {
                storage.deleteMeta(KEYSPACE + old.name());
                storage.deleteMeta(CHANGED + old.name());
                changedAt.remove(old.name());
            }
            for (TableMetadata t : old.tables().values()) {
                TableMetadata still = now == null ? null : now.table(t.name());
                if (still == null || !still.id().equals(t.id())) storage.dropTable(t.id());
            }
        }
        for (Map.Entry<String, Long> e : stamps.entrySet()) {
            if (after.containsKey(e.getKey())) continue;
            storage.putMeta(DROPPED + e.getKey(), longBytes(e.getValue()));
            droppedAt.put(e.getKey(), e.getValue());
        }
    }

    private Map<String, KeyspaceMetadata> user(Map<String, KeyspaceMetadata> all) {
        Map<String, KeyspaceMetadata> user = new TreeMap<>(all);
        user.keySet().removeAll(system.keySet());
        return user;
    }

    private Schema snapshot(Map<String, KeyspaceMetadata> user) {
        Map<String, KeyspaceMetadata> all = new TreeMap<>(system);
        all.putAll(systemAltered);
        all.putAll(user);
        // Altered system keyspaces count in the version, so that nodes that differ in them sync (unaltered ones do not,
        // so the version of a cluster that never altered one is what it was).
        Map<String, KeyspaceMetadata> versioned = new TreeMap<>(user);
        versioned.putAll(systemAltered);
        return new Schema(all, version(versioned));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new java.util.TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(0, v).array();
    }

    private static UUID version(Map<String, KeyspaceMetadata> keyspaces) {
        try {
            MessageDigest digest = MessageDigest.getInstance("MD5");
            digest.update("ballot-schema-v1".getBytes(StandardCharsets.UTF_8));
            for (KeyspaceMetadata ks : keyspaces.values()) digest.update(SchemaJson.encode(ks));
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

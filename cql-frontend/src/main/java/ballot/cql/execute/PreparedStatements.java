package ballot.cql.execute;

import ballot.cql.access.Access;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.CqlStatement;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Supplier;

/**
 * The node's prepared statements under Cassandra's ids, in a bounded Caffeine cache (least recently used out).
 * Invariant, once {@link #dropAffectedBy} has run for the current schema: no statement holds a table that a schema
 * change since its preparation affected ({@link TableMetadata#changeAffectsStatements}). EXECUTE of a dropped one is
 * answered UNPREPARED, and the driver prepares it again against the current schema, under the same id.
 */
final class PreparedStatements {
    /** A prepared statement, its text and the keyspace it was prepared in, and the id of its result metadata. */
    record Entry(String query, String keyspace, CqlStatement statement, List<Access> access, ByteBuffer resultMetadataId) {
        /** @param access what each execution needs of the client's role ({@link ballot.cql.auth.Authorization}) */
        Entry(String query, String keyspace, CqlStatement statement, List<Access> access) {
            this(query, keyspace, statement, access, metadataId(statement.resultMetadata()));
        }

        /** True if a change in {@code schema} since this statement was prepared affects one of its tables. */
        boolean isAffectedBy(Schema schema) {
            for (TableMetadata prepared : statement.tables()) {
                TableMetadata now = schema.table(prepared.keyspace(), prepared.name());
                if (now != prepared && (now == null || prepared.changeAffectsStatements(now))) return true;
            }
            return false;
        }
    }

    private final Cache<ByteBuffer, Entry> cache;
    private final Supplier<Schema> schema;

    PreparedStatements(long entriesMax, Supplier<Schema> schema) {
        this.cache = Caffeine.newBuilder().maximumSize(entriesMax).build();
        this.schema = schema;
    }

    /** The statement prepared under {@code id}, or null. */
    Entry get(ByteBuffer id) {
        return cache.getIfPresent(id);
    }

    /**
     * Keeps {@code entry} under {@code id}, unless a schema change made while it was being prepared affects it: the
     * change's {@link #dropAffectedBy} may have run before it was put here.
     */
    void put(ByteBuffer id, Entry entry) {
        cache.put(id, entry);
        if (entry.isAffectedBy(schema.get())) cache.asMap().remove(id, entry);
    }

    /** Every statement held now, in no particular order. */
    List<PreparedStatementInfo> held() {
        List<PreparedStatementInfo> held = new java.util.ArrayList<>();
        cache.asMap().forEach((id, entry) -> held.add(new PreparedStatementInfo(id.asReadOnlyBuffer(), entry.keyspace(), entry.query())));
        return held;
    }

    /** Drops every statement that a change in {@code current}, the schema just installed, affects. */
    void dropAffectedBy(Schema current) {
        cache.asMap().values().removeIf(entry -> entry.isAffectedBy(current));
    }

    /**
     * Cassandra's statement id: the MD5 of the query text, preceded by the client's keyspace unless the statement is
     * fully qualified or there is none.
     */
    static ByteBuffer statementId(String query, String keyspace, boolean fullyQualified) {
        String digested = fullyQualified || keyspace == null ? query : keyspace + query;
        return ByteBuffer.wrap(md5().digest(digested.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Cassandra's result metadata id (protocol v5): the MD5, over the columns in order, of each name and the marshal
     * form of its type ({@link ballot.cql.type.CqlType#marshalName()}, every field of a user type included), each
     * followed by a zero byte, and a second zero byte after the type.
     */
    static ByteBuffer metadataId(RowsMetadata metadata) {
        MessageDigest md5 = md5();
        for (ColumnSpec c : metadata.columns()) {
            md5.update(c.name().getBytes(StandardCharsets.UTF_8));
            md5.update((byte) 0);
            md5.update(c.type().marshalName().getBytes(StandardCharsets.UTF_8));
            md5.update((byte) 0);
            md5.update((byte) 0);
        }
        return ByteBuffer.wrap(md5.digest());
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every JVM", e);
        }
    }
}

package ballot.cql.describe;

import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * One thing DESCRIBE lists or prints (Cassandra's {@code SchemaElement}). Its create statement is built only when a
 * row for it is actually sent, so listings and skipped pages never pay for it.
 */
record SchemaElement(String keyspace, Type type, String name, CreateStatement createStatement) {
    /** The element kinds, as the {@code type} column spells them (lower case). */
    enum Type {
        KEYSPACE, TYPE, FUNCTION, AGGREGATE, TABLE, INDEX, MATERIALIZED_VIEW;

        String columnValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @FunctionalInterface
    interface CreateStatement {
        String cql(boolean withInternals);
    }

    /** {@code keyspace_name, type, name}, names quoted if needed. */
    ByteBuffer[] listingRow() {
        return new ByteBuffer[] {text(Identifiers.maybeQuote(keyspace)), text(type.columnValue()), text(Identifiers.maybeQuote(name))};
    }

    /** {@code keyspace_name, type, name, create_statement}. */
    ByteBuffer[] elementRow(boolean withInternals) {
        return new ByteBuffer[] {text(Identifiers.maybeQuote(keyspace)), text(type.columnValue()), text(Identifiers.maybeQuote(name)),
                text(createStatement.cql(withInternals))};
    }

    private static ByteBuffer text(String s) {
        return CqlTypes.TEXT.decompose(s);
    }
}

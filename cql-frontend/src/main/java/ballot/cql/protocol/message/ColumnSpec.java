package ballot.cql.protocol.message;

import ballot.cql.type.CqlType;

/** One result column or bind marker: where it comes from, its name, and its type. */
public record ColumnSpec(String keyspace, String table, String name, CqlType type) {}

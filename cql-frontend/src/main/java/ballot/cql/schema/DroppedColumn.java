package ballot.cql.schema;

/** A column dropped from a table, kept for system_schema.dropped_columns. {@code droppedTime} is in micros. */
public record DroppedColumn(String name, String type, String kind, long droppedTime) {}

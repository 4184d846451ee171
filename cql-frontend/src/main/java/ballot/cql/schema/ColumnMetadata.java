package ballot.cql.schema;

import ballot.cql.type.CqlType;

/**
 * A column of a table. {@code id} is unique within the table and never reused, so data written for a dropped column
 * is never mistaken for a column re-added under the same name. {@code position} is the index within the partition key
 * or clustering, and -1 for regular and static columns (as system_schema.columns shows it).
 */
public record ColumnMetadata(String name, int id, Kind kind, int position, CqlType type, boolean descending) {
    public enum Kind {
        PARTITION_KEY("partition_key"), CLUSTERING("clustering"), REGULAR("regular"), STATIC("static");

        private final String schemaName;

        Kind(String schemaName) {
            this.schemaName = schemaName;
        }

        /** As system_schema.columns.kind spells it. */
        public String schemaName() {
            return schemaName;
        }
    }

    public boolean isPrimaryKey() {
        return kind == Kind.PARTITION_KEY || kind == Kind.CLUSTERING;
    }

    public boolean isStatic() {
        return kind == Kind.STATIC;
    }

    public boolean isRegular() {
        return kind == Kind.REGULAR;
    }

    /** As system_schema.columns.clustering_order spells it. */
    public String clusteringOrder() {
        return kind != Kind.CLUSTERING ? "none" : descending ? "desc" : "asc";
    }

    public ColumnMetadata withName(String newName) {
        return new ColumnMetadata(newName, id, kind, position, type, descending);
    }

    public ColumnMetadata withType(CqlType newType) {
        return new ColumnMetadata(name, id, kind, position, newType, descending);
    }
}

package ballot.storage;

import ballot.cql.data.PartitionUpdate;

/** A partition update with the write id the coordinator gave it; replicas store it under that id (idempotent). */
public record Mutation(PartitionUpdate update, byte[] writeId) {
    public Mutation {
        if (writeId.length != WriteId.BYTES) throw new IllegalArgumentException("write id must be " + WriteId.BYTES + " bytes");
    }
}

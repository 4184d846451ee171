package ballot.cql.data;

/** A deletion of the rows of a partition within a slice (DELETE with a clustering range or a clustering prefix). */
public record RangeTombstone(Slice slice, DeletionTime deletion) {}

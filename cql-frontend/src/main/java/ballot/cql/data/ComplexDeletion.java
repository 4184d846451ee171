package ballot.cql.data;

/** A deletion of a whole multi-cell column (collection or non-frozen UDT), e.g. before an overwrite {@code SET m = {...}}. */
public record ComplexDeletion(int column, DeletionTime deletion) {}

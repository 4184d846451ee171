package ballot.cql.statement;

/** One statement's write in a compare-and-set, with the values it was bound to. */
record CasWrite(ModificationStatement statement, QueryContext context) {}

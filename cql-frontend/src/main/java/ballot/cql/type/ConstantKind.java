package ballot.cql.type;

/** The lexical kind of a CQL constant, which decides the types it may be assigned to (see {@link CqlType#accepts}). */
public enum ConstantKind { STRING, INTEGER, FLOAT, BOOLEAN, UUID, HEX, DURATION }

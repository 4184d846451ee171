package ballot.cql.protocol.message;

/** The outcome of QUERY, PREPARE, EXECUTE or BATCH (native_protocol_v5.spec §4.2.5). */
public sealed interface Result extends Response permits VoidResult, Rows, SetKeyspace, Prepared, SchemaChange {
    /** The [int] kind that starts a RESULT body. */
    int kind();
}

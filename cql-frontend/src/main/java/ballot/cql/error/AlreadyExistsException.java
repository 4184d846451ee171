package ballot.cql.error;

/** CREATE of a keyspace or table that exists, without IF NOT EXISTS. {@code table} is empty for a keyspace. */
public final class AlreadyExistsException extends CqlException {
    private final String keyspace;
    private final String table;

    public AlreadyExistsException(String keyspace, String table) {
        super(ErrorCode.ALREADY_EXISTS, table.isEmpty()
                ? "Cannot add existing keyspace \"" + keyspace + "\""
                : "Cannot add already existing table \"" + table + "\" to keyspace \"" + keyspace + "\"");
        this.keyspace = keyspace;
        this.table = table;
    }

    public AlreadyExistsException(String keyspace, String table, String message) {
        super(ErrorCode.ALREADY_EXISTS, message);
        this.keyspace = keyspace;
        this.table = table;
    }

    public String keyspace() {
        return keyspace;
    }

    public String table() {
        return table;
    }
}

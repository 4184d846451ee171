package ballot.cql.protocol.message;

/** The result of USE: the connection's keyspace is now {@code keyspace}. */
public record SetKeyspace(String keyspace) implements Result {
    @Override
    public int kind() {
        return 0x0003;
    }
}

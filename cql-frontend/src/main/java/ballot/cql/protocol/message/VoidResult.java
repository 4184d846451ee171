package ballot.cql.protocol.message;

/** A successful request with nothing to return. */
public record VoidResult() implements Result {
    @Override
    public int kind() {
        return 0x0001;
    }
}

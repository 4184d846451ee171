package ballot.cql.error;

/** EXECUTE named a statement id this node does not hold; the driver re-prepares and retries. */
public final class UnpreparedException extends CqlException {
    private final byte[] statementId;

    public UnpreparedException(byte[] statementId) {
        super(ErrorCode.UNPREPARED, "Prepared query with ID " + hex(statementId) + " not found"
                + " (either the query was not prepared on this host (maybe the host has been restarted?)"
                + " or you have prepared too many queries and it has been evicted from the internal cache)");
        this.statementId = statementId.clone();
    }

    public byte[] statementId() {
        return statementId.clone();
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        return sb.toString();
    }
}

package ballot.cql.error;

/** Why a replica failed a request, as Cassandra's {@code RequestFailureReason} codes it in READ/WRITE_FAILURE. */
public enum RequestFailureReason {
    UNKNOWN(0), INDEX_NOT_AVAILABLE(6);

    private final int code;

    RequestFailureReason(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}

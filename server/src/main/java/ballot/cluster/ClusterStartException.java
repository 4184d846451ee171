package ballot.cluster;

/** The node cannot take its place in the cluster: no seed answered, its address or host id is taken, or it was decommissioned. The message says which and what to do. */
public final class ClusterStartException extends RuntimeException {
    public ClusterStartException(String message) {
        super(message);
    }

    public ClusterStartException(String message, Throwable cause) {
        super(message, cause);
    }
}

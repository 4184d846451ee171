package ballot.cql.trace;

import ballot.cql.data.TimeUuids;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Decides which requests are traced and opens their sessions: every request whose envelope carries the tracing flag,
 * and a random fraction {@link #probability()} of the others ({@code trace_probability}, Cassandra's
 * {@code nodetool settraceprobability}). With probability 0, an untraced request costs one volatile read.
 */
public final class Tracer {
    /** Traces nothing, whatever the client asks: for transports without a node behind them (tests). */
    public static final Tracer OFF = new Tracer(InetAddress.getLoopbackAddress(), 0, null, 0);

    private final InetAddress coordinator;
    private final int coordinatorPort;
    private final TraceSink sink;
    private volatile double probability;

    /**
     * @param coordinator this node's address and internode port, as sessions and events name it
     * @param sink where finished sessions are written
     * @param probability the fraction of requests traced without asking, in [0, 1]
     */
    public Tracer(InetAddress coordinator, int coordinatorPort, TraceSink sink, double probability) {
        this.coordinator = coordinator;
        this.coordinatorPort = coordinatorPort;
        this.sink = sink;
        probability(probability);
    }

    public double probability() {
        return probability;
    }

    /** Changes the fraction of requests traced without asking; takes effect for the next request. */
    public void probability(double probability) {
        this.probability = checkProbability(probability);
    }

    /** The one check of {@code trace_probability}, in the configuration and at run time alike. */
    public static double checkProbability(double probability) {
        if (!(probability >= 0 && probability <= 1))
            throw new IllegalArgumentException("trace_probability must be between 0 and 1, was " + probability);
        return probability;
    }

    /**
     * A session for a request from {@code client} if it is to be traced, else null.
     *
     * @param requested the client asked for the trace (the envelope's tracing flag); else the request may be sampled
     */
    public TraceSession newSession(SocketAddress client, boolean requested) {
        if (sink == null) return null;
        if (!requested) {
            double p = probability;
            if (p == 0 || p < 1 && ThreadLocalRandom.current().nextDouble() >= p) return null;
        }
        long now = System.currentTimeMillis();
        InetAddress from = client instanceof InetSocketAddress inet ? inet.getAddress() : null;
        return new TraceSession(TimeUuids.next(now), requested, from, coordinator, coordinatorPort, now, System.nanoTime(), sink);
    }
}

package ballot.tools.workload;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link Overload}'s loop over {@link RawConnection}s ({@code --client raw}): one sender thread sends each request when
 * it is due (open loop) or when one of the N in flight is answered (closed loop), over connections to every node in
 * turn; each connection's reader hears the answers. A request is a statement prepared beforehand (through the driver)
 * with its values; consistency QUORUM, and SERIAL for the conditional ones. Answers map to {@link Overload.Ending}s as
 * the driver's exceptions do: OVERLOADED (0x1001), timeouts (a server timeout, or an answer after the deadline), errors.
 */
final class RawLoad {
    /** Hears how each request ended. */
    interface Outcomes {
        void ended(Overload.Kind kind, long dueNanos, Overload.Ending ending, String error);
    }

    /** A prepared statement and whether it is conditional (sent with a serial consistency). */
    record Statement(byte[] id, boolean conditional) {}

    private static final int OVERLOADED = 0x1001;
    private static final int WRITE_TIMEOUT = 0x1100;
    private static final int READ_TIMEOUT = 0x1200;

    private final List<Lane> lanes = new ArrayList<>();
    private final Map<Overload.Kind, Statement> statements;
    private final long timeoutNanos;
    private final Outcomes outcomes;
    private final Counter inFlight;
    private volatile Semaphore closedLoop;
    private int next;

    /** One connection and its streams: which are free, and each taken one's kind and due time. */
    private final class Lane implements RawConnection.Answers {
        RawConnection connection; // set once open, before the first send
        final int[] free = new int[RawConnection.STREAMS];
        int freeCount;
        final long[] due = new long[RawConnection.STREAMS];
        final Overload.Kind[] kinds = new Overload.Kind[RawConnection.STREAMS];

        Lane() {
            for (int s = RawConnection.STREAMS - 1; s >= 1; s--) free[freeCount++] = s; // stream 0 was STARTUP's
        }

        @Override
        public void answered(int stream, int errorCode) {
            long dueNanos;
            Overload.Kind kind;
            synchronized (this) {
                dueNanos = due[stream];
                kind = kinds[stream];
                free[freeCount++] = stream;
            }
            inFlight.add(-1);
            if (closedLoop != null) closedLoop.release();
            long latency = System.nanoTime() - dueNanos;
            if (latency > timeoutNanos || errorCode == WRITE_TIMEOUT || errorCode == READ_TIMEOUT) outcomes.ended(kind, dueNanos, Overload.Ending.TIMEOUT, null);
            else if (errorCode == 0) outcomes.ended(kind, dueNanos, Overload.Ending.GOODPUT, null);
            else if (errorCode == OVERLOADED) outcomes.ended(kind, dueNanos, Overload.Ending.OVERLOADED, null);
            else outcomes.ended(kind, dueNanos, Overload.Ending.ERROR, String.format("CQL error 0x%04x", errorCode));
        }

        @Override
        public void lost(IOException cause) {
            if (!(cause instanceof java.io.EOFException)) System.err.println("overload: a connection was lost: " + cause.getMessage());
        }
    }

    RawLoad(List<InetSocketAddress> nodes, int connectionsPerNode, Map<Overload.Kind, Statement> statements, long timeoutNanos,
            Outcomes outcomes, Counter inFlight) throws IOException {
        this.statements = statements;
        this.timeoutNanos = timeoutNanos;
        this.outcomes = outcomes;
        this.inFlight = inFlight;
        for (int i = 0; i < connectionsPerNode; i++)
            for (InetSocketAddress node : nodes) {
                Lane lane = new Lane();
                lane.connection = RawConnection.open(node, lane);
                lanes.add(lane);
            }
    }

    /**
     * Open loop: sends each request at its due time until {@code end} ({@code wheel} picks the kinds in turn); one due
     * while {@code inFlightMax} are out, or when its connection has no free stream, is not sent.
     */
    void openLoop(Overload.Kind[] wheel, Values values, double rate, long start, long end, int inFlightMax) throws IOException {
        double gapNanos = 1e9 / rate;
        for (long i = 0; ; i++) {
            long due = start + (long) (i * gapNanos);
            if (due >= end) break;
            long wait = due - System.nanoTime();
            if (wait > 20_000) {
                flushAll();
                LockSupport.parkNanos(wait);
            }
            Overload.Kind kind = wheel[(int) (i % wheel.length)];
            if (inFlight.get() >= inFlightMax || !send(kind, values.of(kind), due)) outcomes.ended(kind, due, Overload.Ending.NOT_SENT, null);
        }
        flushAll();
    }

    /** Closed loop: {@code n} requests in flight, each sent when one is answered, until {@code end}. */
    void closedLoop(Overload.Kind[] wheel, Values values, int n, long end) throws IOException, InterruptedException {
        closedLoop = new Semaphore(n);
        for (long i = 0; System.nanoTime() < end; i++) {
            if (!closedLoop.tryAcquire()) {
                flushAll();
                closedLoop.acquire();
            }
            Overload.Kind kind = wheel[(int) (i % wheel.length)];
            long due = System.nanoTime();
            if (!send(kind, values.of(kind), due)) {
                outcomes.ended(kind, due, Overload.Ending.NOT_SENT, null);
                closedLoop.release();
            }
        }
        flushAll();
    }

    /** The values of a request of a kind, in the order of its statement's markers (Integer or Long). */
    interface Values {
        Object[] of(Overload.Kind kind);
    }

    /** The requests in flight, shared with the caller's progress lines. */
    interface Counter {
        int get();

        void add(int delta);
    }

    private boolean send(Overload.Kind kind, Object[] values, long due) throws IOException {
        Lane lane = lanes.get(next++ % lanes.size());
        int stream;
        synchronized (lane) {
            if (lane.freeCount == 0) return false;
            stream = lane.free[--lane.freeCount];
            lane.due[stream] = due;
            lane.kinds[stream] = kind;
        }
        inFlight.add(1);
        Statement statement = statements.get(kind);
        lane.connection.execute(stream, statement.id(), encode(values), RawConnection.QUORUM,
                statement.conditional() ? RawConnection.SERIAL : 0);
        return true;
    }

    private static ByteBuffer[] encode(Object[] values) {
        ByteBuffer[] encoded = new ByteBuffer[values.length];
        for (int i = 0; i < values.length; i++) {
            encoded[i] = values[i] instanceof Long l ? ByteBuffer.allocate(8).putLong(0, l) : ByteBuffer.allocate(4).putInt(0, (Integer) values[i]);
        }
        return encoded;
    }

    private void flushAll() throws IOException {
        for (Lane lane : lanes) lane.connection.flush();
    }

    /** Closes every connection; answers still out are not waited for. */
    void close() {
        for (Lane lane : lanes) {
            try {
                lane.connection.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}

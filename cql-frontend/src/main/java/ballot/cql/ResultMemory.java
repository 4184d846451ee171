package ballot.cql;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.OverloadedException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory a node spends on query results for its clients: rows gathered for a response, and responses encoded but
 * not yet written to their client's socket. Each connection has an {@link Account}, each statement execution a
 * {@link Lease} on its connection's account.
 *
 * <p>Invariants, enforced in {@link Lease#reserve}: the node's bytes are the sum of its accounts' bytes; gathering
 * rows never takes an account past {@code connectionBytesMax} nor the node past {@code nodeBytesMax} (a reservation
 * that would is refused and reserves nothing). Encoded responses exist already, so {@link Account#charge} never
 * refuses; their bytes make later reservations fail until the socket takes them. A client that reads nothing thus
 * holds at most about {@code connectionBytesMax} of the node's memory, and all clients together about
 * {@code nodeBytesMax}.
 */
public final class ResultMemory {
    private final long nodeBytesMax;
    private final long connectionBytesMax;
    private final AtomicLong nodeBytes = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    /**
     * @param nodeBytesMax result bytes the node holds at once, over all connections
     * @param connectionBytesMax result bytes one connection holds at once; one result larger than this can never be
     *     sent whole, and its query is refused as invalid
     */
    public ResultMemory(long nodeBytesMax, long connectionBytesMax) {
        if (connectionBytesMax <= 0 || nodeBytesMax < connectionBytesMax)
            throw new IllegalArgumentException("need 0 < connectionBytesMax (" + connectionBytesMax + ") <= nodeBytesMax ("
                    + nodeBytesMax + ")");
        this.nodeBytesMax = nodeBytesMax;
        this.connectionBytesMax = connectionBytesMax;
    }

    public Account account() {
        return new Account(this);
    }

    /** Result bytes held now, over all connections. */
    public long bytes() {
        return nodeBytes.get();
    }

    /** Statements refused so far because their rows would not fit. */
    public long refusals() {
        return refusals.get();
    }

    public long connectionBytesMax() {
        return connectionBytesMax;
    }

    public long nodeBytesMax() {
        return nodeBytesMax;
    }

    /** One connection's share. Thread-safe. {@link #UNMETERED} is for the node's own statements. */
    public static final class Account {
        public static final Account UNMETERED = new Account(null);

        /** Null for {@link #UNMETERED}. */
        private final ResultMemory memory;
        private final AtomicLong bytes = new AtomicLong();
        private volatile boolean closed;

        private Account(ResultMemory memory) {
            this.memory = memory;
        }

        /** A lease for one statement execution's rows; release it once the statement has its result. */
        public Lease lease() {
            return memory == null ? Lease.UNMETERED : new Lease(this);
        }

        /** Charges {@code n} bytes of an encoded response until {@link #release}d: written, or the write failed. */
        public void charge(long n) {
            bytes.addAndGet(n);
            memory.nodeBytes.addAndGet(n);
        }

        public void release(long n) {
            bytes.addAndGet(-n);
            memory.nodeBytes.addAndGet(-n);
        }

        /** The client has gone: statements still gathering rows for it stop at their next reservation. */
        public void close() {
            closed = true;
        }

        public long bytes() {
            return bytes.get();
        }

        private boolean tryReserve(long n) {
            if (bytes.addAndGet(n) > memory.connectionBytesMax) {
                bytes.addAndGet(-n);
                return false;
            }
            if (memory.nodeBytes.addAndGet(n) > memory.nodeBytesMax) {
                memory.nodeBytes.addAndGet(-n);
                bytes.addAndGet(-n);
                return false;
            }
            return true;
        }
    }

    /**
     * One statement execution's gathered rows. Used by the statement's thread only; {@link #UNMETERED} counts nothing.
     */
    public static final class Lease {
        private static final Lease UNMETERED = new Lease(null);

        private final Account account;
        private long bytes;

        private Lease(Account account) {
            this.account = account;
        }

        /**
         * Reserves {@code n} more bytes of rows ({@code 0}: only checks that the client is still there).
         *
         * @throws InvalidRequestException if the result alone would exceed what one connection may hold: it can never
         *     be sent whole
         * @throws OverloadedException if the connection's other results or the node's leave no room now
         * @throws CancellationException if the client has gone: the statement's result would be thrown away
         */
        public void reserve(long n) {
            if (account == null) return;
            if (account.closed) throw new CancellationException("the client closed its connection");
            ResultMemory memory = account.memory;
            if (bytes + n > memory.connectionBytesMax) {
                memory.refusals.incrementAndGet();
                throw new InvalidRequestException("The result of this query exceeds the " + mib(memory.connectionBytesMax)
                        + " MiB a node holds for one connection (native_transport_max_result_data_per_connection_in_mb); "
                        + "page it (set a page size) or narrow it with LIMIT");
            }
            if (!account.tryReserve(n)) {
                memory.refusals.incrementAndGet();
                throw new OverloadedException("Results in flight leave no room for this query's rows ("
                        + mib(account.bytes()) + " of " + mib(memory.connectionBytesMax) + " MiB on this connection, "
                        + mib(memory.bytes()) + " of " + mib(memory.nodeBytesMax)
                        + " MiB on the node); read the responses already sent, or page the query");
            }
            bytes += n;
        }

        /** Returns every reserved byte; the lease may not be used afterwards. */
        public void release() {
            if (account == null || bytes == 0) return;
            account.release(bytes);
            bytes = 0;
        }
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / (1024.0 * 1024.0));
    }
}

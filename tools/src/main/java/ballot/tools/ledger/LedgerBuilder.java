package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link Ledger}; each setter checks its value and names the setting when it refuses one. The tables must
 * exist ({@link LedgerTables#create}) before {@link #build()}, which prepares the statements.
 */
public final class LedgerBuilder {
    /** Cassandra's largest TTL, 20 years. */
    private static final Duration TTL_MAX = Duration.ofSeconds(630_720_000);

    private final CqlSession session;
    private CqlIdentifier keyspace = CqlIdentifier.fromInternal("lightest");
    private Algorithm algorithm = Algorithm.LWT;
    private DefaultConsistencyLevel serialConsistency = DefaultConsistencyLevel.SERIAL;
    private Duration claimTtl = Duration.ofSeconds(30);
    private Duration outcomeRetention = Duration.ofDays(1);
    private Duration transferTimeout = Duration.ofSeconds(60);

    LedgerBuilder(CqlSession session) {
        this.session = Objects.requireNonNull(session, "session");
    }

    /** Keyspace of the ledger's tables (default {@code lightest}). */
    public LedgerBuilder keyspace(CqlIdentifier keyspace) {
        this.keyspace = Objects.requireNonNull(keyspace, "keyspace");
        return this;
    }

    /** Default {@link Algorithm#LWT}. */
    public LedgerBuilder algorithm(Algorithm algorithm) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
        return this;
    }

    /**
     * SERIAL (the default) or LOCAL_SERIAL: the consistency of the conditional statements' Paxos rounds. Their commits
     * and the plain reads and writes run at QUORUM or LOCAL_QUORUM to match.
     */
    public LedgerBuilder serialConsistency(DefaultConsistencyLevel level) {
        if (level == null || !level.isSerial())
            throw new IllegalArgumentException("serialConsistency is " + level + "; it must be SERIAL or LOCAL_SERIAL");
        this.serialConsistency = level;
        return this;
    }

    /**
     * How long a client's claim on a transfer lasts (whole seconds, default 30 s, lightest's value). A transfer whose
     * claim has lapsed is taken to be abandoned and may be finished by another client, so every transfer must finish
     * well within it.
     */
    public LedgerBuilder claimTtl(Duration ttl) {
        requireWholeSeconds("claimTtl", ttl);
        this.claimTtl = ttl;
        return this;
    }

    /**
     * How long a transfer's final outcome is kept after it finished (whole seconds, default one day): a retry with the
     * same id within it returns the outcome; a retry after it starts the transfer again.
     */
    public LedgerBuilder outcomeRetention(Duration retention) {
        requireWholeSeconds("outcomeRetention", retention);
        this.outcomeRetention = retention;
        return this;
    }

    /**
     * How long one {@code transfer} call goes on waiting, for locked accounts or for another client finishing the same
     * transfer, before it returns {@link TransferOutcome#TIMED_OUT_UNKNOWN} (default 60 s).
     */
    public LedgerBuilder transferTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero())
            throw new IllegalArgumentException("transferTimeout is " + timeout + "; it must be positive");
        this.transferTimeout = timeout;
        return this;
    }

    public Ledger build() {
        if (outcomeRetention.compareTo(claimTtl) < 0)
            throw new IllegalArgumentException("outcomeRetention is " + outcomeRetention + "; it must be at least claimTtl (" + claimTtl + ")");
        ConsistencyLevel quorum = serialConsistency == DefaultConsistencyLevel.LOCAL_SERIAL ? DefaultConsistencyLevel.LOCAL_QUORUM : DefaultConsistencyLevel.QUORUM;
        LwtLedger lwt = new LwtLedger(new LwtSteps(session, keyspace, serialConsistency, quorum, claimTtl, outcomeRetention), claimTtl, transferTimeout);
        if (algorithm == Algorithm.LWT) return lwt;
        // batch and txn share the accounts with lwt transfers, whose leftovers they finish through an lwt ledger
        TransferOutcomes outcomes = new TransferOutcomes(session, keyspace, serialConsistency, quorum, outcomeRetention);
        TransferAttempts attempts = algorithm == Algorithm.BATCH
                ? new BatchAttempts(session, keyspace, serialConsistency, quorum, outcomes)
                : new TxnAttempts(session, keyspace, serialConsistency, quorum, outcomeRetention);
        return new AtomicLedger(attempts, outcomes, lwt, transferTimeout);
    }

    private static void requireWholeSeconds(String setting, Duration value) {
        if (value == null || value.toNanos() % 1_000_000_000L != 0 || value.getSeconds() < 1 || value.compareTo(TTL_MAX) > 0)
            throw new IllegalArgumentException(setting + " is " + value + "; it must be whole seconds from 1 s to " + TTL_MAX.getSeconds() + " s");
    }
}

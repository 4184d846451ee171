package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.type.CqlDuration;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

/**
 * ScyllaDB's {@code USING TIMEOUT <duration>}: how long the coordinator may take over one execution of a statement, in
 * place of the node's configured timeout of its kind. The term binds to a duration named {@code [timeout]} (a marker
 * shows that name in PREPARED); its value is checked on every execution, with ScyllaDB's messages: a whole number of
 * milliseconds, not negative, without months or days. Zero is valid: the statement times out at once.
 */
final class StatementTimeout {
    static final StatementTimeout NONE = new StatementTimeout(null, -1);
    private static final long NANOS_PER_MILLI = 1_000_000;

    private final Value value;
    /** The bind marker giving the value, -1 for a literal (which cannot be unset). */
    private final int marker;

    private StatementTimeout(Value value, int marker) {
        this.value = value;
        this.marker = marker;
    }

    /** The timeout {@code term} gives, or {@link #NONE} if it is null (no USING TIMEOUT). */
    static StatementTimeout prepare(Term term, String keyspace, String table, Markers markers) {
        if (term == null) return NONE;
        ColumnSpec receiver = new ColumnSpec(keyspace, table, "[timeout]", CqlTypes.DURATION);
        int marker = term instanceof Term.BindMarker m ? m.index() : -1;
        return new StatementTimeout(Terms.prepare(term, receiver, markers, UserTypeResolver.NONE), marker);
    }

    /** {@code context}, or with USING TIMEOUT a context whose coordinator has this execution's deadline. */
    QueryContext applyTo(QueryContext context) {
        if (value == null) return context;
        return context.within(of(context.bindings()));
    }

    /**
     * This execution's timeout, read from the client's values before the statement runs (admission refuses it once it
     * has waited that long, docs/admission.md), or null: no USING TIMEOUT, or values its execution will refuse.
     */
    Duration before(QueryOptions options, List<String> markerNames) {
        if (value == null) return null;
        try {
            return of(Bindings.of(options.values(), options.valueNames(), markerNames));
        } catch (RuntimeException refusedWhenItRuns) { // a missing, null or malformed value: the execution says so
            return null;
        }
    }

    private Duration of(Bindings bindings) {
        ByteBuffer bound = value.bind(bindings);
        if (bound == null) throw new InvalidRequestException("Timeout value cannot be null");
        if (bound == QueryOptions.UNSET) throw new InvalidRequestException("Unexpected unset value for bind variable " + marker);
        return duration((CqlDuration) CqlTypes.DURATION.compose(bound));
    }

    private static Duration duration(CqlDuration d) {
        if (d.months() != 0 || d.days() != 0) throw new InvalidRequestException("Timeout values cannot be expressed in days/months");
        if (d.nanoseconds() % NANOS_PER_MILLI != 0) {
            throw new InvalidRequestException("Timeout values cannot have granularity finer than milliseconds");
        }
        if (d.nanoseconds() < 0) throw new InvalidRequestException("Timeout values must be non-negative");
        return Duration.ofNanos(d.nanoseconds());
    }
}

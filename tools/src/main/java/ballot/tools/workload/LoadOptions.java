package ballot.tools.workload;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.time.Duration;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** How hard and how long a workload runs, and how its requests are made; shared by every subcommand. */
final class LoadOptions {
    @Option(names = {"-w", "--workers"}, paramLabel = "W", description = "requests (for pay: transfers) in flight at once (default: cores x 4, here ${DEFAULT-VALUE})")
    int workers = Runtime.getRuntime().availableProcessors() * 4;

    @Option(names = {"-c", "--consistency"}, defaultValue = "SERIAL", paramLabel = "LEVEL",
            description = "one of ${COMPLETION-CANDIDATES}. SERIAL and LOCAL_SERIAL run conditional statements (LWT) with that "
                    + "serial consistency, committed at QUORUM or LOCAL_QUORUM; pop also takes any other level, and then runs its "
                    + "inserts without their condition, at that level (default ${DEFAULT-VALUE})")
    DefaultConsistencyLevel consistency;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "0", description = "seed of the pseudo-random accounts (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class, description = "stop issuing requests after this long, e.g. 30s or 5m, and summarise")
    Duration duration;

    @Option(names = "--progress-interval", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
            description = "time between progress lines (default ${DEFAULT-VALUE})")
    Duration progressInterval;

    /** True if statements carry their condition (lightweight transactions); false for the plain comparison run. */
    boolean conditional() {
        return consistency.isSerial();
    }

    /** Consistency of the commit (LWT) or of the write itself (plain). */
    DefaultConsistencyLevel writeConsistency() {
        return switch (consistency) {
            case SERIAL -> DefaultConsistencyLevel.QUORUM;
            case LOCAL_SERIAL -> DefaultConsistencyLevel.LOCAL_QUORUM;
            default -> consistency;
        };
    }

    /** The serial consistency of the run's own bookkeeping LWTs: {@code -c} if serial, else SERIAL. */
    DefaultConsistencyLevel serialConsistency() {
        return conditional() ? consistency : DefaultConsistencyLevel.SERIAL;
    }

    /** The level of reads and of commits that go with {@link #serialConsistency()}: QUORUM, or LOCAL_QUORUM with LOCAL_SERIAL. */
    DefaultConsistencyLevel quorumConsistency() {
        return serialConsistency() == DefaultConsistencyLevel.LOCAL_SERIAL ? DefaultConsistencyLevel.LOCAL_QUORUM : DefaultConsistencyLevel.QUORUM;
    }

    void validate(CommandSpec spec) {
        if (workers < 1) throw new ParameterException(spec.commandLine(), "--workers is " + workers + "; it must be at least 1");
        if (duration != null && (duration.isNegative() || duration.isZero()))
            throw new ParameterException(spec.commandLine(), "--duration is " + duration + "; it must be positive");
        if (progressInterval.toMillis() < 1)
            throw new ParameterException(spec.commandLine(), "--progress-interval is " + progressInterval + "; it must be at least 1ms");
    }

    BoundedLoad boundedLoad(Consumer<String> progress) {
        return new BoundedLoad(workers, duration, progressInterval, progress);
    }
}

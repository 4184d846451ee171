package ballot.lwt;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.acceptor.AcceptorState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of writing an acceptor's register, which every acceptor step persists (docs/paxos.md §12): a register
 * holding a committed decree of {@code entryBytes} (plus a 200-byte entry, as a transaction's state beside its row
 * update), an accepted proposal of {@code entryBytes} that follows it, and eight recent decrees. Small entries are
 * an LWT's single row; a few kilobytes are a transaction step's row update and transaction state. In package
 * {@code ballot.lwt} because the register codec is the server's own.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar RegisterEncodeBenchmark}; a short run:
 * {@code ... RegisterEncodeBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class RegisterEncodeBenchmark {
    @Param({"100", "1000", "4000"})
    public int entryBytes;

    private AcceptorState register;

    @Setup
    public void setUp() {
        Random random = new Random(7);
        Ballot committedBallot = new Ballot(1_700_000_000_000_000L, 0, 1, 1);
        Ballot acceptedBallot = new Ballot(1_700_000_000_000_100L, 0, 2, 1);
        Decree committed = new Decree(committedBallot, committedBallot, List.of(entry(random, entryBytes), entry(random, 200)));
        Proposal accepted = new Proposal(acceptedBallot, acceptedBallot, List.of(entry(random, entryBytes)), committed, null);
        List<RecentDecrees.Id> recent = new ArrayList<>();
        for (int i = 0; i < RecentDecrees.SIZE_MAX; i++) {
            Ballot b = new Ballot(1_700_000_000_000_000L - 1_000 * (i + 1), 0, 1 + i % 3, 1);
            recent.add(new RecentDecrees.Id(b, b));
        }
        register = new AcceptorState(acceptedBallot, accepted, committed, 1_700_000_000_001_000L,
                new RecentDecrees(recent, Ballot.ZERO));
    }

    private static Bytes entry(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return Bytes.wrap(bytes);
    }

    @Benchmark
    public byte[] encodeRegister() {
        return PaxosCodec.encodeState(register);
    }
}

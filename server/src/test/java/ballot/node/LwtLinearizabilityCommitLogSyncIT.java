package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link LwtLinearizabilityIT} with {@code paxos_sync: commitlog} on every node (docs/paxos.md §4.15): promises and
 * acceptances are written to the log before their reply but not synced, as Cassandra's are. A node killed with SIGKILL
 * keeps what it wrote, so histories stay linearizable and nothing acknowledged is lost; only a power loss could take it.
 */
class LwtLinearizabilityCommitLogSyncIT extends LwtLinearizabilityIT {
    @Override
    List<String> settings() {
        return List.of("paxos_sync: commitlog");
    }

    /** Runs before the cluster stops (a subclass's {@code @AfterEach} goes first): the nodes really ran in this mode. */
    @AfterEach
    void everyNodeRanWithVotesFollowingTheLog() throws IOException {
        for (NodeProcess node : nodes) assertThat(Files.readString(node.log())).as(node.address).contains("paxos_sync=commitlog");
    }
}

package ballot.tools.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * One partition's Paxos registers as the node's acceptor holds them (docs/paxos.md §2), read from its system.paxos:
 * the promised ballot, the accepted proposal not yet committed, and the most recent commit.
 */
@Command(name = "getpaxos", description = "The Paxos state of one partition on the node: promised ballot, accepted proposal and most "
        + "recent commit (from system.paxos).")
final class GetPaxosCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @CommandLine.Parameters(index = "0", paramLabel = "<keyspace>")
    String keyspace;

    @CommandLine.Parameters(index = "1", paramLabel = "<table>")
    String table;

    @CommandLine.Parameters(index = "2", paramLabel = "<key>", description = "the partition key as a CQL literal without quotes; "
            + "the components of a composite key separated by ':'")
    String key;

    /** A ballot and when it was made: its time UUID's timestamp, ISO-8601 in UTC. */
    record Ballot(UUID ballot, String at) {
        static Ballot of(UUID ballot) {
            return ballot == null ? null : new Ballot(ballot, Instant.ofEpochMilli(Uuids.unixTimestamp(ballot)).toString());
        }
    }

    /** A register's ballot and the bytes of the decree it holds (null: pruned, or none). */
    record Decree(Ballot ballot, Integer bytes) {}

    /** Null registers are unset: no promise, no accepted proposal, no commit. */
    record PaxosState(String keyspace, String table, String key, boolean found, Ballot promised, Decree accepted, Decree committed) {}

    @Override
    public Integer call() {
        PaxosState state;
        try (CqlSession session = parent.connect()) {
            state = read(session);
        }
        if (parent.json) {
            parent.printJson(state);
            return 0;
        }
        PrintWriter out = parent.out();
        out.println("Paxos state of " + keyspace + "." + table + " key " + key + " on " + parent.host + ":");
        if (!state.found()) {
            out.println("\tnone: no LWT has touched this partition on this node (or its registers were purged)");
        } else {
            out.println("\tPromised ballot:    " + describe(state.promised()));
            out.println("\tAccepted proposal:  " + describe(state.accepted()));
            out.println("\tMost recent commit: " + describe(state.committed()));
        }
        out.flush();
        return 0;
    }

    private PaxosState read(CqlSession session) {
        TableMetadata metadata = session.getMetadata().getKeyspace(keyspace)
                .orElseThrow(() -> new AdminCli.Failure("unknown keyspace '" + keyspace + "'"))
                .getTable(table)
                .orElseThrow(() -> new AdminCli.Failure("unknown table '" + keyspace + "." + table + "'"));
        UUID id = metadata.getId().orElseThrow(() -> new AdminCli.Failure("the node does not say the id of table '" + keyspace + "." + table + "'"));
        ByteBuffer partitionKey = PartitionKeys.encode(session, metadata, key);
        Row row = AdminCli.ask(session, parent.contact(), SimpleStatement.newInstance(
                "SELECT in_progress_ballot, proposal_ballot, proposal, most_recent_commit_at, most_recent_commit FROM system.paxos "
                        + "WHERE row_key = ? AND cf_id = ?", partitionKey, id)).one();
        if (row == null) return new PaxosState(keyspace, table, key, false, null, null, null);
        return new PaxosState(keyspace, table, key, true, Ballot.of(row.getUuid("in_progress_ballot")),
                decree(row.getUuid("proposal_ballot"), row.getByteBuffer("proposal")),
                decree(row.getUuid("most_recent_commit_at"), row.getByteBuffer("most_recent_commit")));
    }

    private static Decree decree(UUID ballot, ByteBuffer entries) {
        return ballot == null ? null : new Decree(Ballot.of(ballot), entries == null ? null : entries.remaining());
    }

    private static String describe(Ballot ballot) {
        return ballot == null ? "none" : ballot.ballot() + " (" + ballot.at() + ")";
    }

    private static String describe(Decree decree) {
        if (decree == null) return "none";
        return describe(decree.ballot()) + (decree.bytes() == null ? ", entries pruned" : ", " + decree.bytes() + " bytes of entries");
    }
}

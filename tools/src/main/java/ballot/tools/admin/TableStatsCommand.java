package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Tables' storage and local activity on the node, from its {@code tablestats} admin call (RocksDB's properties). */
@Command(name = "tablestats", description = "Each table's SSTables, bytes on disk and in memtables, estimated keys and local read and "
        + "write counts and latencies on the node (like nodetool tablestats).")
final class TableStatsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @CommandLine.Parameters(arity = "0..*", paramLabel = "<keyspace[.table]>", description = "the keyspaces and tables to show (default: all)")
    List<String> names = new ArrayList<>();

    @Override
    public Integer call() {
        JsonNode tables = parent.adminCalls().get("tablestats", names);
        if (parent.json) {
            parent.printJson(tables);
            return 0;
        }
        PrintWriter out = parent.out();
        out.println("Total number of tables: " + tables.size());
        out.println("----------------");
        String keyspace = null;
        for (JsonNode t : tables) {
            if (!t.get("keyspace").asText().equals(keyspace)) {
                keyspace = t.get("keyspace").asText();
                out.println("Keyspace : " + keyspace);
            }
            out.println("\tTable: " + t.get("table").asText());
            out.println("\tSSTable count: " + t.get("sstable_count").asText());
            out.println("\tSpace used (live): " + t.get("space_used_live_bytes").asText());
            out.println("\tSpace used (total): " + t.get("space_used_total_bytes").asText());
            out.println("\tMemtable data size: " + t.get("memtable_bytes").asText());
            out.println("\tNumber of keys (estimate): " + t.get("estimated_keys").asText());
            out.println("\tLocal read count: " + t.get("local_read_count").asText());
            out.printf("\tLocal read latency: %.3f ms%n", t.get("local_read_latency_millis").asDouble());
            out.println("\tLocal write count: " + t.get("local_write_count").asText());
            out.printf("\tLocal write latency: %.3f ms%n", t.get("local_write_latency_millis").asDouble());
            out.println();
        }
        out.flush();
        return 0;
    }
}

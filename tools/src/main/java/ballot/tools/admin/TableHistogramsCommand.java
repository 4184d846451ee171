package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** One table's local latencies on the node, from its {@code tablehistograms} admin call. */
@Command(name = "tablehistograms", description = "Latency percentiles of one table's local reads and writes on the node in the last two "
        + "minutes, and its SSTable count (like nodetool tablehistograms).")
final class TableHistogramsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @CommandLine.Parameters(arity = "1..2", paramLabel = "<keyspace> <table> | <keyspace.table>")
    List<String> names;

    @Override
    public Integer call() {
        String table = names.size() == 2 ? names.get(0) + "." + names.get(1) : names.get(0);
        if (!table.contains(".")) throw new AdminCli.Failure("name a table: <keyspace> <table>, or <keyspace>.<table>");
        JsonNode h = parent.adminCalls().get("tablehistograms", List.of(table));
        if (parent.json) {
            parent.printJson(h);
            return 0;
        }
        PrintWriter out = parent.out();
        out.println(h.get("keyspace").asText() + "/" + h.get("table").asText() + " histograms");
        PercentileTable.print(out, List.of("Read Latency", "Write Latency"), List.of(h.get("read"), h.get("write")));
        out.println("SSTable count: " + h.get("sstable_count").asText());
        out.flush();
        return 0;
    }
}

package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** One node's identity and health, from its {@code info} admin call (like nodetool info). */
@Command(name = "info", description = "The node's host id, state, load, uptime, heap, data center, rack and tokens (like nodetool info).")
final class InfoCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @Override
    public Integer call() {
        JsonNode info = parent.adminCalls().get("info", List.of());
        if (parent.json) {
            parent.printJson(info);
            return 0;
        }
        PrintWriter out = parent.out();
        line(out, "ID", info.get("host_id").asText());
        line(out, "Gossip active", info.get("gossip_active").asText());
        line(out, "Native Transport active", info.get("native_transport_active").asText());
        line(out, "Load", Sizes.human(info.get("load_bytes").asLong()));
        line(out, "Generation No", info.get("generation").asText());
        line(out, "Uptime (seconds)", info.get("uptime_seconds").asText());
        line(out, "Heap Memory (MB)", String.format("%.2f / %.2f", info.get("heap_used_bytes").asLong() / 1048576.0,
                info.get("heap_max_bytes").asLong() / 1048576.0));
        line(out, "Data Center", info.get("data_center").asText());
        line(out, "Rack", info.get("rack").asText());
        line(out, "Exceptions", info.get("storage_background_errors").asText() + " (storage background errors)");
        line(out, "Tokens", info.get("tokens").asText());
        line(out, "Version", "Ballot " + info.get("ballot_version").asText() + " (release_version " + info.get("release_version").asText() + ")");
        out.flush();
        return 0;
    }

    private static void line(PrintWriter out, String name, String value) {
        out.printf("%-23s: %s%n", name, value);
    }
}

package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The node's coordinator latencies, from its {@code proxyhistograms} admin call (the coordinator's timers). */
@Command(name = "proxyhistograms", description = "Latency percentiles of the reads, writes, range scans and LWTs this node coordinated "
        + "in the last two minutes (like nodetool proxyhistograms).")
final class ProxyHistogramsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @Override
    public Integer call() {
        JsonNode h = parent.adminCalls().get("proxyhistograms", List.of());
        if (parent.json) {
            parent.printJson(h);
            return 0;
        }
        PrintWriter out = parent.out();
        out.println("proxy histograms");
        PercentileTable.print(out, List.of("Read Latency", "Write Latency", "Range Latency", "CAS Read Latency", "CAS Write Latency"),
                List.of(h.get("read"), h.get("write"), h.get("range"), h.get("cas_read"), h.get("cas_write")));
        out.flush();
        return 0;
    }
}

package ballot.tools.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The cluster as one node sees it (like nodetool describecluster): its name and partitioner and each node's schema
 * version from system.local and system.peers, liveness and data centers from system_views.nodes.
 */
@Command(name = "describecluster", description = "Cluster name, partitioner, schema versions with the nodes on each, and nodes up and "
        + "down by data center (like nodetool describecluster).")
final class DescribeClusterCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    record DataCenter(String name, int nodes, int down) {}

    record Description(String name, String partitioner, Map<String, List<String>> schemaVersions, int live, int unreachable,
            List<DataCenter> dataCenters) {}

    @Override
    public Integer call() {
        Description d;
        try (CqlSession session = parent.connect()) {
            d = describe(session);
        }
        if (parent.json) {
            parent.printJson(d);
            return 0;
        }
        PrintWriter out = parent.out();
        out.println("Cluster Information:");
        out.println("\tName: " + d.name());
        out.println("\tPartitioner: " + d.partitioner());
        out.println("\tSchema versions:");
        d.schemaVersions().forEach((version, nodes) -> out.println("\t\t" + version + ": " + nodes));
        out.println();
        out.println("Stats for all nodes:");
        out.println("\tLive: " + d.live());
        out.println("\tUnreachable: " + d.unreachable());
        out.println();
        out.println("Data Centers:");
        for (DataCenter dc : d.dataCenters()) out.println("\t" + dc.name() + " #Nodes: " + dc.nodes() + " #Down: " + dc.down());
        out.flush();
        return 0;
    }

    private Description describe(CqlSession session) {
        Row local = AdminCli.ask(session, parent.contact(),
                SimpleStatement.newInstance("SELECT cluster_name, partitioner, host_id, schema_version FROM system.local")).one();
        Map<UUID, UUID> schemaVersions = new LinkedHashMap<>();
        schemaVersions.put(local.getUuid("host_id"), local.getUuid("schema_version"));
        for (Row peer : AdminCli.ask(session, parent.contact(), SimpleStatement.newInstance("SELECT host_id, schema_version FROM system.peers")))
            schemaVersions.put(peer.getUuid("host_id"), peer.getUuid("schema_version"));
        Map<String, List<String>> nodesByVersion = new TreeMap<>();
        Map<String, int[]> dataCenters = new TreeMap<>();
        int live = 0;
        List<AdminCli.Node> nodes = AdminCli.nodes(session, parent.contact());
        for (AdminCli.Node n : nodes) {
            UUID version = schemaVersions.get(n.hostId());
            boolean up = n.status().equals("UP");
            // A node down has no schema version anyone can vouch for: nodetool lists it as UNREACHABLE too.
            String key = up && version != null ? version.toString() : "UNREACHABLE";
            nodesByVersion.computeIfAbsent(key, k -> new ArrayList<>()).add(n.address().getHostAddress());
            int[] counts = dataCenters.computeIfAbsent(n.dataCenter(), k -> new int[2]);
            counts[0]++;
            if (up) live++;
            else counts[1]++;
        }
        List<DataCenter> dcs = new ArrayList<>();
        dataCenters.forEach((name, counts) -> dcs.add(new DataCenter(name, counts[0], counts[1])));
        return new Description(local.getString("cluster_name"), local.getString("partitioner"), nodesByVersion, live, nodes.size() - live, dcs);
    }
}

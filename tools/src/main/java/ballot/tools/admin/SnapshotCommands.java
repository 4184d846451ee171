package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code snapshot}, {@code listsnapshots} and {@code clearsnapshot}: the node's snapshots, through its admin calls of
 * the same names (docs/admin.md, "Snapshots"). A snapshot is of the whole node, every keyspace at one instant.
 */
final class SnapshotCommands {
    private SnapshotCommands() {}

    @Command(name = "snapshot", description = "Takes a snapshot of every keyspace on the node: a consistent checkpoint whose files "
            + "are hard links to the live ones (like nodetool snapshot).")
    static final class Take implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @CommandLine.Option(names = {"-t", "--tag"}, description = "the snapshot's name (default: the current time in milliseconds)")
        String tag;

        @Override
        public Integer call() {
            String name = tag != null ? tag : Long.toString(System.currentTimeMillis());
            JsonNode taken = parent.adminCalls().post("snapshot", Map.of("tag", name));
            if (parent.json) {
                parent.printJson(taken);
                return 0;
            }
            parent.out().println("Took snapshot " + taken.get("tag").asText() + " of every keyspace (" + Sizes.human(taken.get("size_bytes").asLong())
                    + ", " + Sizes.human(taken.get("true_size_bytes").asLong()) + " not shared with the live data)");
            parent.out().flush();
            return 0;
        }
    }

    @Command(name = "listsnapshots", description = "The node's snapshots with their size on disk and the bytes only they hold "
            + "(like nodetool listsnapshots).")
    static final class Listing implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @Override
        public Integer call() {
            JsonNode snapshots = parent.adminCalls().get("listsnapshots", List.of());
            if (parent.json) {
                parent.printJson(snapshots);
                return 0;
            }
            PrintWriter out = parent.out();
            if (snapshots.isEmpty()) {
                out.println("There are no snapshots");
                out.flush();
                return 0;
            }
            List<List<String>> table = new ArrayList<>();
            table.add(List.of("Snapshot name", "True size", "Size on disk", "Creation time"));
            long trueSize = 0;
            for (JsonNode s : snapshots) {
                trueSize += s.get("true_size_bytes").asLong();
                table.add(List.of(s.get("tag").asText(), Sizes.human(s.get("true_size_bytes").asLong()), Sizes.human(s.get("size_bytes").asLong()),
                        Instant.ofEpochMilli(s.get("created_millis").asLong()).toString()));
            }
            out.println("Snapshot Details:");
            AdminCli.printAligned(out, table);
            out.println();
            out.println("Total TrueDiskSpaceUsed: " + Sizes.human(trueSize));
            out.flush();
            return 0;
        }
    }

    @Command(name = "clearsnapshot", description = "Deletes the snapshot named with -t, or every snapshot with --all (like nodetool clearsnapshot).")
    static final class Clear implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @CommandLine.ArgGroup(multiplicity = "1")
        Which which;

        static final class Which {
            @CommandLine.Option(names = {"-t", "--tag"}, required = true, description = "the snapshot to delete")
            String tag;

            @CommandLine.Option(names = "--all", required = true, description = "delete every snapshot")
            boolean all;
        }

        @Override
        public Integer call() {
            Map<String, String> parameters = new LinkedHashMap<>();
            if (which.tag != null) parameters.put("tag", which.tag);
            else parameters.put("all", "true");
            JsonNode cleared = parent.adminCalls().post("clearsnapshot", parameters);
            if (parent.json) {
                parent.printJson(cleared);
                return 0;
            }
            List<String> tags = new ArrayList<>();
            cleared.forEach(t -> tags.add(t.asText()));
            parent.out().println("Cleared " + tags.size() + " snapshot(s)" + (tags.isEmpty() ? "" : ": " + String.join(", ", tags)));
            parent.out().flush();
            return 0;
        }
    }
}

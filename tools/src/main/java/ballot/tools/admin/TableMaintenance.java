package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.StreamSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code flush} and {@code compact}: one storage task on the node for the tables named (a keyspace's, or all), through
 * the admin call of the same name; it answers once the task is done.
 */
abstract class TableMaintenance implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "<keyspace>", description = "default: every keyspace")
    String keyspace;

    @CommandLine.Parameters(index = "1..*", arity = "0..*", paramLabel = "<table>", description = "default: every table of the keyspace")
    List<String> tables = new ArrayList<>();

    abstract String task();

    abstract String done();

    @Override
    public Integer call() {
        List<String> named = new ArrayList<>();
        if (keyspace != null && tables.isEmpty()) named.add(keyspace);
        for (String table : tables) named.add(keyspace + "." + table);
        JsonNode answer = parent.adminCalls().post(task(), named);
        if (parent.json) {
            parent.printJson(answer);
            return 0;
        }
        List<String> names = StreamSupport.stream(answer.spliterator(), false).map(JsonNode::asText).toList();
        parent.out().println(done() + " " + names.size() + " table(s)" + (names.isEmpty() ? "" : ": " + String.join(", ", names)));
        parent.out().flush();
        return 0;
    }

    @Command(name = "flush", description = "Writes the tables' memtables to SSTables on the node (like nodetool flush).")
    static final class Flush extends TableMaintenance {
        String task() {
            return "flush";
        }

        String done() {
            return "Flushed";
        }
    }

    @Command(name = "compact", description = "Compacts the tables' SSTables into one level on the node (like nodetool compact).")
    static final class Compact extends TableMaintenance {
        String task() {
            return "compact";
        }

        String done() {
            return "Compacted";
        }
    }
}

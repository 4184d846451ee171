package ballot.tools.admin;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Drains the node through its {@code drain} admin call. */
@Command(name = "drain", description = "Closes the node's client connections and internode messaging, then flushes every memtable; "
        + "the process stays up until stopped (like nodetool drain).")
final class DrainCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @Override
    public Integer call() {
        var answer = parent.adminCalls().post("drain", List.of());
        if (parent.json) {
            parent.printJson(answer);
        } else {
            parent.out().println("Drained " + parent.host + ": it takes no more clients or messages; stop its process when ready");
            parent.out().flush();
        }
        return 0;
    }
}

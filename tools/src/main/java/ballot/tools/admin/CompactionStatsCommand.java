package ballot.tools.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The flushes and compactions the node runs now, from its system_views.sstable_tasks, as nodetool compactionstats prints them. */
@Command(name = "compactionstats", description = "Flushes and compactions running on the node, with their progress in bytes "
        + "(from system_views.sstable_tasks, like nodetool compactionstats).")
final class CompactionStatsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    record Task(UUID id, String kind, String keyspace, String table, long completed, long total, String unit, double progress) {}

    record Stats(int activeTasks, List<Task> tasks) {}

    @Override
    public Integer call() {
        List<Task> tasks = new ArrayList<>();
        try (CqlSession session = parent.connect()) {
            for (Row r : AdminCli.ask(session, parent.contact(), SimpleStatement.newInstance("SELECT * FROM system_views.sstable_tasks"))) {
                tasks.add(new Task(r.getUuid("task_id"), r.getString("kind"), r.getString("keyspace_name"), r.getString("table_name"),
                        r.getLong("progress"), r.getLong("total"), r.getString("unit"), r.getDouble("completion_ratio")));
            }
        }
        tasks.sort(Comparator.comparing(Task::keyspace).thenComparing(Task::table).thenComparing(Task::id));
        if (parent.json) {
            parent.printJson(new Stats(tasks.size(), tasks));
            return 0;
        }
        PrintWriter out = parent.out();
        out.println("active tasks: " + tasks.size());
        if (!tasks.isEmpty()) {
            out.println();
            List<List<String>> table = new ArrayList<>();
            table.add(List.of("id", "compaction type", "keyspace", "table", "completed", "total", "unit", "progress"));
            for (Task t : tasks) {
                table.add(List.of(t.id().toString(), t.kind(), t.keyspace(), t.table(), Long.toString(t.completed()), Long.toString(t.total()),
                        t.unit(), String.format(Locale.ROOT, "%.2f%%", t.progress() * 100)));
            }
            AdminCli.printAligned(out, table);
        }
        out.flush();
        return 0;
    }
}

package ballot.system;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.Cell;
import ballot.cql.data.PartitionData;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.TimeUuids;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.cql.type.CqlTypes;
import ballot.storage.StorageTask;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The node's own views of itself that need no running node: system_views.sstable_tasks. */
class SystemKeyspacesTest {
    private final TableMetadata accounts = SchemaDefinitions.table("bank", "CREATE TABLE accounts (id int PRIMARY KEY, balance bigint)",
            UUID.randomUUID());
    private final Schema schema = new Schema(Map.of("bank", new KeyspaceMetadata("bank", Map.of("class", "SimpleStrategy"), true,
            Map.of("accounts", accounts), Map.of())), UUID.randomUUID());
    private final SystemKeyspaces system = new SystemKeyspaces(new LocalNode("c", UUID.randomUUID(), InetAddress.getLoopbackAddress(), 7000,
            InetAddress.getLoopbackAddress(), 9042, "dc1", "rack1", List.of(0L, Long.MIN_VALUE), 1), () -> schema, VirtualTable.Source.of(List::of));

    /**
     * Size estimates share the node's keys of a table among its primary ranges by their part of the ring (two tokens:
     * two halves), with the mean size from its bytes; table_estimates has each range as primary and local_primary.
     */
    @Test
    void sizeEstimatesShareATablesKeysAmongThePrimaryRanges() {
        system.tableSizes(id -> id.equals(accounts.id()) ? new SystemKeyspaces.TableSize(100, 5000) : null);
        assertThat(rows("system", "size_estimates")).containsExactlyInAnyOrder(
                "bank.accounts " + Long.MIN_VALUE + " 0 mean_partition_size=50 partitions_count=50",
                "bank.accounts 0 " + Long.MIN_VALUE + " mean_partition_size=50 partitions_count=50");
        assertThat(rows("system", "table_estimates")).hasSize(4).allMatch(r -> r.endsWith("mean_partition_size=50 partitions_count=50"))
                .anyMatch(r -> r.startsWith("bank.accounts local_primary")).anyMatch(r -> r.startsWith("bank.accounts primary"));
    }

    /** system_schema.tables shows no cdc, even for a table WITH cdc = true, as Cassandra 5.0.9 with CDC off. */
    @Test
    void tablesShowNoCdc() {
        TableMetadata audit = SchemaDefinitions.table("bank", "CREATE TABLE audit (id int PRIMARY KEY) WITH cdc = true", UUID.randomUUID());
        Schema withCdc = new Schema(Map.of("bank", new KeyspaceMetadata("bank", Map.of("class", "SimpleStrategy"), true,
                Map.of("audit", audit), Map.of())), UUID.randomUUID());
        SystemKeyspaces node = new SystemKeyspaces(new LocalNode("c", UUID.randomUUID(), InetAddress.getLoopbackAddress(), 7000,
                InetAddress.getLoopbackAddress(), 9042, "dc1", "rack1", List.of(0L), 1), () -> withCdc, VirtualTable.Source.of(List::of));
        assertThat(rows(node, "system_schema", "tables")).filteredOn(r -> r.startsWith("bank.audit ")).singleElement()
                .satisfies(r -> assertThat(r).contains(" comment=").doesNotContain("cdc="));
    }

    private List<String> rows(String keyspace, String name) {
        return rows(system, keyspace, name);
    }

    /** Each row of a system table as "keyspace.first-clustering other-clustering... column=value...". */
    private static List<String> rows(SystemKeyspaces system, String keyspace, String name) {
        TableMetadata view = system.keyspaces().get(keyspace).table(name);
        List<String> rows = new ArrayList<>();
        for (PartitionData p : system.table(view.id()).scan(TokenRange.ALL, ReadSpec.all(0), 100)) {
            for (Row row : p.rows()) {
                StringBuilder line = new StringBuilder(CqlTypes.TEXT.compose(p.key().key()) + ".");
                for (int i = 0; i < view.clustering().size(); i++) {
                    line.append(i == 0 ? "" : " ").append(view.clustering().get(i).type().compose(row.clustering().get(i)));
                }
                for (Cell cell : row.cells()) {
                    String column = view.columns().stream().filter(c -> c.id() == cell.column()).findFirst().orElseThrow().name();
                    line.append(" ").append(column).append("=").append(view.column(column).type().compose(cell.value()));
                }
                rows.add(line.toString());
            }
        }
        return rows;
    }

    /**
     * A task names its table by keyspace and name (a node-local family as a system table), with Cassandra's completion
     * ratio; a task of a table the schema no longer has is left out.
     */
    @Test
    void sstableTasksNameTheirTablesAndLeaveOutDroppedOnes() {
        UUID compaction = TimeUuids.next(1_000), flush = TimeUuids.next(2_000), dropped = TimeUuids.next(3_000);
        system.storageTasks(() -> List.of(
                new StorageTask(compaction, accounts.id(), null, "compaction", 250, 1000),
                new StorageTask(flush, null, "paxos", "flush", 0, 0),
                new StorageTask(dropped, UUID.randomUUID(), null, "compaction", 1, 2)));
        TableMetadata view = system.keyspaces().get("system_views").table("sstable_tasks");
        List<String> rows = new ArrayList<>();
        for (PartitionData p : system.table(view.id()).scan(TokenRange.ALL, ReadSpec.all(0), 100)) {
            String keyspace = (String) CqlTypes.TEXT.compose(p.key().key());
            for (Row row : p.rows()) {
                StringBuilder line = new StringBuilder(keyspace + "." + CqlTypes.TEXT.compose(row.clustering().get(0)));
                line.append(" ").append(((UUID) CqlTypes.TIMEUUID.compose(row.clustering().get(1))).equals(compaction) ? "compaction-id" : "other-id");
                for (Cell cell : row.cells()) {
                    String column = view.columns().stream().filter(c -> c.id() == cell.column()).findFirst().orElseThrow().name();
                    line.append(" ").append(column).append("=").append(view.column(column).type().compose(cell.value()));
                }
                rows.add(line.toString());
            }
        }
        assertThat(rows).containsExactlyInAnyOrder(
                "bank.accounts compaction-id completion_ratio=0.25 kind=compaction progress=250 total=1000 unit=bytes",
                "system.paxos other-id completion_ratio=1.0 kind=flush progress=0 total=0 unit=bytes");
    }
}

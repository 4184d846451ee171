package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Paging as a property: for random schemas (0-3 clustering columns, static columns, one- and two-column partition
 * keys) filled with random data (overwrites, updates without row markers, cell, row, range and partition deletions,
 * expired and unexpired TTLs), every query read page by page, at every page size from 1 to past the row count, returns
 * exactly the rows of the unpaged read, in the same order; the unpaged read equals a client-side model of the data, and
 * COUNT(*) and SUM equal the model's figures. Run against one node by {@link PagingPropertyIT} and against three by
 * {@link PagingPropertyClusterIT}.
 * <p>
 * The seed is printed; {@code -Dballot.paging.seed=N} replays a run, {@code -Dballot.paging.schemas=N} runs more.
 */
final class PagingProperty {
    private final CqlSession session;
    private final String keyspace;

    PagingProperty(CqlSession session, String keyspace) {
        this.session = session;
        this.keyspace = keyspace;
    }

    /** Creates {@code schemas} random tables (unless the property says otherwise), fills them and checks each. */
    void checkRandomSchemas(int schemas) {
        long seed = Long.getLong("ballot.paging.seed", System.nanoTime());
        schemas = Integer.getInteger("ballot.paging.schemas", schemas);
        System.out.println("PagingProperty seed=" + seed + " (replay with -Dballot.paging.seed=" + seed + ")");
        Random random = new Random(seed);
        List<Shape> shapes = new ArrayList<>();
        for (int i = 0; i < schemas; i++) shapes.add(Shape.random(keyspace + ".t" + i, random, i % 4));
        for (Shape shape : shapes) session.execute(shape.createTable());
        // Every table gets its short-TTL writes first, so they have all expired once the last table is filled.
        List<Model> models = new ArrayList<>();
        for (Shape shape : shapes) models.add(new Model(shape));
        for (Model m : models) m.writeExpiring(random);
        for (Model m : models) m.writeRandom(random);
        for (Model m : models) m.awaitExpiry();
        for (Model m : models) checkTable(m, seed);
    }

    /**
     * Aggregates read their table in chunks of hundreds of rows, each resuming after the previous one: COUNT(*) and
     * SUM over {@code rows} accounts (no clustering columns, as the banking workload's) and ledger entries equal the
     * figures written, at several page sizes.
     */
    void checkAggregatesOverManyPartitions(int rows) {
        session.execute("CREATE TABLE " + keyspace + ".accounts (bic text, ban text, balance int, PRIMARY KEY ((bic, ban)))");
        session.execute("CREATE TABLE " + keyspace + ".ledger (k int, c int, amount int, PRIMARY KEY (k, c))");
        var account = session.prepare("INSERT INTO " + keyspace + ".accounts (bic, ban, balance) VALUES (?, ?, ?)");
        var entry = session.prepare("INSERT INTO " + keyspace + ".ledger (k, c, amount) VALUES (?, ?, ?)");
        long total = 0;
        List<java.util.concurrent.CompletionStage<?>> writes = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            writes.add(session.executeAsync(account.bind("bic" + i % 7, "ban" + i, i % 100)));
            writes.add(session.executeAsync(entry.bind(i % 50, i, i % 100)));
            total += i % 100;
            if (writes.size() >= 256) {
                for (var w : writes) w.toCompletableFuture().join();
                writes.clear();
            }
        }
        for (var w : writes) w.toCompletableFuture().join();
        for (String table : List.of("accounts", "ledger")) {
            String column = table.equals("accounts") ? "balance" : "amount";
            for (int pageSize : new int[] {0, 10, 1000}) {
                Row row = one("SELECT COUNT(*), SUM(" + column + ") FROM " + keyspace + "." + table, pageSize);
                assertThat(row.getLong(0)).as("COUNT(*) of %s at page size %d", table, pageSize).isEqualTo(rows);
                assertThat((long) row.getInt(1)).as("SUM of %s at page size %d", table, pageSize).isEqualTo(total);
            }
            assertThat(read("SELECT * FROM " + keyspace + "." + table, 10, rows)).as("%s read 10 rows a page", table).hasSize(rows);
        }
    }

    private void checkTable(Model m, long seed) {
        Shape s = m.shape;
        List<String> expected = m.rows();
        String columns = String.join(", ", s.selected());
        String scan = "SELECT " + columns + " FROM " + s.name;
        List<String> unpaged = read(scan, Integer.MAX_VALUE, expected.size() + 1);
        assertThat(unpaged).as("seed %d, %s: unpaged scan against the model", seed, s).containsExactlyInAnyOrderElementsOf(expected);

        List<String> queries = new ArrayList<>();
        queries.add(scan);
        queries.add("SELECT DISTINCT " + String.join(", ", s.partitionKey) + (s.hasStatic ? ", s" : "") + " FROM " + s.name);
        queries.add(scan + " WHERE token(" + String.join(", ", s.partitionKey) + ") > -3000000000000000000");
        queries.add(scan + " WHERE v > 10 ALLOW FILTERING");
        queries.add(scan + " LIMIT 7");
        if (!s.clustering.isEmpty()) queries.add(scan + " PER PARTITION LIMIT 2");
        String hottest = m.largestPartition();
        if (hottest != null) queries.add(scan + " WHERE " + hottest);
        for (String q : queries) {
            List<String> whole = read(q, Integer.MAX_VALUE, expected.size() + 1);
            for (int pageSize = 1; pageSize <= whole.size() + 1; pageSize++) {
                assertThat(read(q, pageSize, whole.size() + 1)).as("seed %d, %s, page size %d", seed, q, pageSize).isEqualTo(whole);
            }
        }

        long sum = m.sumOfV();
        for (int pageSize : new int[] {0, 1, 3, 5000}) {
            Row count = one("SELECT COUNT(*), SUM(v) FROM " + s.name, pageSize);
            assertThat(count.getLong(0)).as("seed %d, %s: COUNT(*) at page size %d", seed, s, pageSize).isEqualTo(expected.size());
            assertThat((long) count.getInt(1)).as("seed %d, %s: SUM(v) at page size %d", seed, s, pageSize).isEqualTo(sum);
        }
    }

    private Row one(String cql, int pageSize) {
        SimpleStatement statement = SimpleStatement.newInstance(cql);
        if (pageSize > 0) statement = statement.setPageSize(pageSize);
        return session.execute(statement).one();
    }

    /** Reads every page of {@code cql}; fails instead of looping if the pages hold more than {@code rowsMax} rows. */
    List<String> read(String cql, int pageSize, int rowsMax) {
        SimpleStatement statement = SimpleStatement.newInstance(cql).setPageSize(pageSize == Integer.MAX_VALUE ? 0 : pageSize);
        ResultSet rs = session.execute(statement);
        List<String> out = new ArrayList<>();
        for (Iterator<Row> it = rs.iterator(); it.hasNext(); ) {
            Row row = it.next();
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.getColumnDefinitions().size(); i++) {
                if (i > 0) sb.append('|');
                sb.append(row.getObject(i));
            }
            out.add(sb.toString());
            assertThat(out.size()).as("%s at page size %d returned more rows than exist", cql, pageSize).isLessThanOrEqualTo(rowsMax);
        }
        return out;
    }

    // ---------------------------------------------------------------- schemas

    /** A random table shape: partition key columns, clustering columns (each ASC or DESC), maybe a static column. */
    private record Shape(String name, List<String> partitionKey, List<String> clustering, List<Boolean> descending,
            List<String> clusteringTypes, boolean hasStatic) {
        static Shape random(String name, Random random, int clusteringColumns) {
            List<String> pk = random.nextBoolean() ? List.of("p") : List.of("p", "q");
            List<String> ck = new ArrayList<>();
            List<Boolean> desc = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (int i = 0; i < clusteringColumns; i++) {
                ck.add("c" + i);
                desc.add(random.nextInt(3) == 0);
                types.add(random.nextBoolean() ? "int" : "text");
            }
            return new Shape(name, pk, ck, desc, types, clusteringColumns > 0 && random.nextBoolean());
        }

        String createTable() {
            StringBuilder sb = new StringBuilder("CREATE TABLE " + name + " (p int, ");
            if (partitionKey.size() > 1) sb.append("q text, ");
            for (int i = 0; i < clustering.size(); i++) sb.append(clustering.get(i)).append(' ').append(clusteringTypes.get(i)).append(", ");
            if (hasStatic) sb.append("s int static, ");
            sb.append("v int, w text, PRIMARY KEY ((").append(String.join(", ", partitionKey)).append(')');
            for (String c : clustering) sb.append(", ").append(c);
            sb.append("))");
            if (!clustering.isEmpty()) {
                sb.append(" WITH CLUSTERING ORDER BY (");
                for (int i = 0; i < clustering.size(); i++) {
                    if (i > 0) sb.append(", ");
                    sb.append(clustering.get(i)).append(descending.get(i) ? " DESC" : " ASC");
                }
                sb.append(')');
            }
            return sb.toString();
        }

        List<String> selected() {
            List<String> out = new ArrayList<>(partitionKey);
            out.addAll(clustering);
            if (hasStatic) out.add("s");
            out.add("v");
            out.add("w");
            return out;
        }

        @Override
        public String toString() {
            return createTable();
        }
    }

    // ---------------------------------------------------------------- the model

    /**
     * What the table must hold, kept by the client as it writes: per partition its static value and rows; a row is
     * live while it has a row marker (from INSERT) or a live cell, as in Cassandra.
     */
    private final class Model {
        private final Shape shape;
        private final Map<String, PartitionModel> partitions = new LinkedHashMap<>();
        private final List<String> expiringProbes = new ArrayList<>();

        Model(Shape shape) {
            this.shape = shape;
        }

        private static final class PartitionModel {
            final Object[] key;
            Integer staticValue;
            final TreeMap<String, RowModel> rows = new TreeMap<>();

            PartitionModel(Object[] key) {
                this.key = key;
            }
        }

        private static final class RowModel {
            final Object[] clustering;
            boolean marker;
            Integer v;
            String w;

            RowModel(Object[] clustering) {
                this.clustering = clustering;
            }

            boolean live() {
                return marker || v != null || w != null;
            }
        }

        private Object[] randomKey(Random random) {
            int p = random.nextInt(12);
            return shape.partitionKey.size() == 1 ? new Object[] {p} : new Object[] {p, "q" + random.nextInt(2)};
        }

        private Object[] randomClustering(Random random) {
            Object[] c = new Object[shape.clustering.size()];
            for (int i = 0; i < c.length; i++) c[i] = shape.clusteringTypes.get(i).equals("int") ? random.nextInt(4) - 1 : "c" + random.nextInt(3);
            return c;
        }

        private static String literal(Object v) {
            return v instanceof String s ? "'" + s + "'" : String.valueOf(v);
        }

        private String where(Object[] key, Object[] clustering, int clusteringPrefix) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < key.length; i++) parts.add(shape.partitionKey.get(i) + " = " + literal(key[i]));
            for (int i = 0; i < clusteringPrefix; i++) parts.add(shape.clustering.get(i) + " = " + literal(clustering[i]));
            return String.join(" AND ", parts);
        }

        private PartitionModel partition(Object[] key) {
            return partitions.computeIfAbsent(keyString(key), k -> new PartitionModel(key));
        }

        private static String keyString(Object[] values) {
            return java.util.Arrays.stream(values).map(String::valueOf).collect(Collectors.joining("|"));
        }

        private RowModel row(Object[] key, Object[] clustering) {
            return partition(key).rows.computeIfAbsent(keyString(clustering), k -> new RowModel(clustering));
        }

        private void insert(Object[] key, Object[] clustering, int v, String w, String using) {
            List<String> names = new ArrayList<>(shape.partitionKey);
            List<String> values = new ArrayList<>();
            for (Object k : key) values.add(literal(k));
            for (int i = 0; i < clustering.length; i++) {
                names.add(shape.clustering.get(i));
                values.add(literal(clustering[i]));
            }
            names.add("v");
            values.add(String.valueOf(v));
            names.add("w");
            values.add(literal(w));
            session.execute("INSERT INTO " + shape.name + " (" + String.join(", ", names) + ") VALUES ("
                    + String.join(", ", values) + ")" + using);
        }

        /** Rows written with a 1 s TTL: gone by the time the table is read, like rows deleted at write time + 1 s. */
        void writeExpiring(Random random) {
            for (int i = 0; i < 6; i++) {
                Object[] key = new Object[shape.partitionKey.size()];
                key[0] = 1000 + i;
                if (key.length > 1) key[1] = "x";
                Object[] clustering = randomClustering(random);
                insert(key, clustering, i, "expiring", " USING TTL 1");
                expiringProbes.add("SELECT v FROM " + shape.name + " WHERE " + where(key, clustering, clustering.length));
            }
        }

        void awaitExpiry() {
            for (String probe : expiringProbes) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (session.execute(probe).one() != null) {
                    assertThat(System.nanoTime()).as("%s still live 10 s after a 1 s TTL", probe).isLessThan(deadline);
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
                }
            }
        }

        void writeRandom(Random random) {
            int operations = 20 + random.nextInt(60);
            for (int i = 0; i < operations; i++) {
                Object[] key = randomKey(random);
                Object[] clustering = randomClustering(random);
                String table = shape.name;
                int op = random.nextInt(20);
                if (op < 9) {
                    int v = random.nextInt(100);
                    String w = "w" + random.nextInt(5);
                    insert(key, clustering, v, w, random.nextInt(4) == 0 ? " USING TTL 100000" : "");
                    RowModel r = row(key, clustering);
                    r.marker = true;
                    r.v = v;
                    r.w = w;
                } else if (op < 12) {
                    // An UPDATE writes cells but no row marker: the row lives only while a cell does.
                    int v = random.nextInt(100);
                    session.execute("UPDATE " + table + " SET v = " + v + " WHERE " + where(key, clustering, clustering.length));
                    row(key, clustering).v = v;
                } else if (op < 14) {
                    session.execute("DELETE v FROM " + table + " WHERE " + where(key, clustering, clustering.length));
                    row(key, clustering).v = null;
                } else if (op < 16) {
                    session.execute("DELETE FROM " + table + " WHERE " + where(key, clustering, clustering.length));
                    partition(key).rows.remove(keyString(clustering));
                } else if (op < 17 && clustering.length > 1) {
                    int prefix = 1 + random.nextInt(clustering.length - 1);
                    session.execute("DELETE FROM " + table + " WHERE " + where(key, clustering, prefix));
                    partition(key).rows.values().removeIf(r -> java.util.Arrays.equals(
                            java.util.Arrays.copyOf(r.clustering, prefix), java.util.Arrays.copyOf(clustering, prefix)));
                } else if (op < 18 && random.nextInt(3) == 0) {
                    session.execute("DELETE FROM " + table + " WHERE " + where(key, clustering, 0));
                    PartitionModel p = partition(key);
                    p.rows.clear();
                    p.staticValue = null;
                } else if (shape.hasStatic) {
                    int s = random.nextInt(100);
                    session.execute("UPDATE " + table + " SET s = " + s + " WHERE " + where(key, clustering, 0));
                    partition(key).staticValue = s;
                }
            }
        }

        /** The rows SELECT * shows: live rows, or one row of nulls beside a live static value in a partition without any. */
        List<String> rows() {
            List<String> out = new ArrayList<>();
            for (PartitionModel p : partitions.values()) {
                boolean any = false;
                for (RowModel r : p.rows.values()) {
                    if (!r.live()) continue;
                    any = true;
                    out.add(format(p, r.clustering, r.v, r.w));
                }
                if (!any && p.staticValue != null) out.add(format(p, new Object[shape.clustering.size()], null, null));
            }
            return out;
        }

        private String format(PartitionModel p, Object[] clustering, Integer v, String w) {
            List<Object> values = new ArrayList<>(java.util.Arrays.asList(p.key));
            values.addAll(java.util.Arrays.asList(clustering));
            if (shape.hasStatic) values.add(p.staticValue);
            values.add(v);
            values.add(w);
            return values.stream().map(String::valueOf).collect(Collectors.joining("|"));
        }

        long sumOfV() {
            long sum = 0;
            for (PartitionModel p : partitions.values()) for (RowModel r : p.rows.values()) if (r.live() && r.v != null) sum += r.v;
            return sum;
        }

        /** A WHERE clause selecting the partition with the most live rows, or null if the table is empty. */
        String largestPartition() {
            Map<PartitionModel, Integer> sizes = new HashMap<>();
            for (PartitionModel p : partitions.values()) sizes.put(p, (int) p.rows.values().stream().filter(RowModel::live).count());
            return sizes.entrySet().stream().filter(e -> e.getValue() > 0).max(Map.Entry.comparingByValue())
                    .map(e -> where(e.getKey().key, new Object[0], 0)).orElse(null);
        }
    }
}

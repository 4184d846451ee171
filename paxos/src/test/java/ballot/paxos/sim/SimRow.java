package ballot.paxos.sim;

import ballot.paxos.Bytes;
import ballot.paxos.spi.ReadModel;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulation's partition data model: a row of named last-write-wins cells (a value or a tombstone, with a write
 * timestamp), like one CQL row. A query is the string of cell names it reads ("vqp"); an update is a set of cells
 * without timestamps (the decree's timestamp is added when it is applied).
 *
 * <p>Cells used by the workload: {@code v} is the register (written only by Paxos), {@code p} is written only by
 * plain writes, and {@code q} records the {@code p} a Paxos update saw when it was evaluated (to prove freshness).
 */
final class SimRow {
    record Cell(long value, boolean tombstone, long timestamp) {
        boolean beats(Cell other) {
            if (timestamp != other.timestamp) return timestamp > other.timestamp;
            if (tombstone != other.tombstone) return tombstone; // as in Cassandra: a tie goes to the deletion
            return value > other.value;
        }

        Long valueOrNull() {
            return tombstone ? null : value;
        }
    }

    static final Bytes ALL = Bytes.utf8("vqp");
    static final Bytes REGISTER = Bytes.utf8("vq");

    private SimRow() {}

    static Bytes encode(Map<Character, Cell> cells) {
        ByteBuffer b = ByteBuffer.allocate(4 + cells.size() * 19);
        b.putInt(cells.size());
        for (Map.Entry<Character, Cell> e : cells.entrySet()) {
            b.putChar(e.getKey());
            b.put((byte) (e.getValue().tombstone ? 1 : 0));
            b.putLong(e.getValue().value);
            b.putLong(e.getValue().timestamp);
        }
        return Bytes.wrap(b.array());
    }

    static TreeMap<Character, Cell> decode(Bytes bytes) {
        TreeMap<Character, Cell> cells = new TreeMap<>();
        if (bytes.size() == 0) return cells;
        ByteBuffer b = ByteBuffer.wrap(bytes.toByteArray());
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            char name = b.getChar();
            boolean tombstone = b.get() == 1;
            cells.put(name, new Cell(b.getLong(), tombstone, b.getLong()));
        }
        return cells;
    }

    static Long value(Bytes row, char cell) {
        Cell c = decode(row).get(cell);
        return c == null ? null : c.valueOrNull();
    }

    static boolean reads(Bytes query, char cell) {
        return query.toUtf8().indexOf(cell) >= 0;
    }

    /** Writes {@code update}'s cells into {@code row} at {@code timestamp}, last write wins. */
    static void applyInPlace(Map<Character, Cell> row, Map<Character, Cell> update, long timestamp, String only) {
        for (Map.Entry<Character, Cell> e : update.entrySet()) {
            if (only != null && only.indexOf(e.getKey()) < 0) continue;
            Cell incoming = new Cell(e.getValue().value, e.getValue().tombstone, timestamp);
            Cell existing = row.get(e.getKey());
            if (existing == null || incoming.beats(existing)) row.put(e.getKey(), incoming);
        }
    }

    static Bytes select(Map<Character, Cell> row, Bytes query) {
        String names = query.toUtf8();
        TreeMap<Character, Cell> selected = new TreeMap<>();
        row.forEach((name, cell) -> { if (names.indexOf(name) >= 0) selected.put(name, cell); });
        return encode(selected);
    }

    /** The {@link ReadModel} the coordinators use for this data model. */
    static final ReadModel MODEL = new ReadModel() {
        @Override
        public Bytes merge(Bytes query, List<Bytes> results) {
            TreeMap<Character, Cell> merged = new TreeMap<>();
            for (Bytes r : results)
                decode(r).forEach((name, cell) -> {
                    Cell existing = merged.get(name);
                    if (existing == null || cell.beats(existing)) merged.put(name, cell);
                });
            return encode(merged);
        }

        @Override
        public Bytes apply(Bytes query, Bytes result, Bytes update, long timestampMicros) {
            TreeMap<Character, Cell> row = decode(result);
            applyInPlace(row, decode(update), timestampMicros, query.toUtf8());
            return encode(row);
        }

        /** A query of some of the cells another reads ({@link #REGISTER} of {@link #ALL}) is its selection. */
        @Override
        public Bytes narrow(Bytes query, Bytes wider, Bytes result) {
            for (char cell : query.toUtf8().toCharArray()) if (!reads(wider, cell)) return null;
            return select(decode(result), query);
        }
    };
}

package ballot.transactions;

import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionUpdate;
import ballot.lwt.CqlValues;
import ballot.paxos.Bytes;
import ballot.txn.Attempt;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Reservation;
import ballot.txn.TxnId;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The transaction state of a partition (docs/txn.md §2: intent, reservation, markers, records; not the value, which
 * is the partition's rows) in the bytes a {@link ballot.lwt.TxnCell} holds (§11.1):
 * <pre>
 * state  = version(1) · flags(1) · [intent] · [reservation] · count(4) · (txnId · marker)* · count(4) · record*
 * flags  = 0x01 intent present · 0x02 reservation present · 0x04 records present (version 2; version 1 states, which
 *          lack the bit, are still read)
 * intent = txnId · epoch(4) · key home · age(8) · deadline(8) · sized entry (its update, relative to the decree)
 * </pre>
 * A state that holds nothing encodes as no bytes at all: the tombstone that must outrank older states.
 */
final class TxnStateCodec {
    private static final int VERSION = 2;
    private static final int INTENT = 0x01;
    private static final int RESERVATION = 0x02;
    private static final int RECORDS = 0x04;

    private TxnStateCodec() {}

    /** Whether the stored state holds an intent: a lock that single-partition statements must honour (§11.1). */
    static boolean holdsIntent(byte[] state) {
        return holdsIntent(state, 0);
    }

    /** The same of a state that begins at {@code from} in {@code bytes} (a {@link ballot.lwt.TxnCell}'s stored form). */
    static boolean holdsIntent(byte[] bytes, int from) {
        return bytes.length >= from + 2 && (bytes[from + 1] & INTENT) != 0;
    }

    /**
     * Whether the stored state may hold something the sweep acts on (an intent or a record), without decoding it: a
     * participant's state often holds only markers, which expire by themselves (docs/txn.md §2).
     */
    static boolean mayNeedSweep(byte[] state) {
        return mayNeedSweep(state, 0);
    }

    /** The same of a state that begins at {@code from} in {@code bytes} (a {@link ballot.lwt.TxnCell}'s stored form). */
    static boolean mayNeedSweep(byte[] bytes, int from) {
        return bytes.length >= from + 2 && (bytes[from] != VERSION || (bytes[from + 1] & (INTENT | RECORDS)) != 0);
    }

    /** The transaction state of {@code state} (its value is left out). */
    static byte[] encode(PartitionState<TxnValue> state, UUID tableId, ballot.cql.data.PartitionKey key) {
        if (state.intent() == null && state.reservation() == null && state.markers().isEmpty() && state.records().isEmpty())
            return new byte[0];
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(VERSION);
            out.writeByte((state.intent() != null ? INTENT : 0) | (state.reservation() != null ? RESERVATION : 0)
                    | (state.records().isEmpty() ? 0 : RECORDS));
            if (state.intent() != null) writeIntent(out, state.intent(), tableId, key);
            if (state.reservation() != null) {
                Reservation r = state.reservation();
                writeId(out, r.id());
                out.writeLong(r.ageMicros());
                out.writeLong(r.untilMicros());
            }
            out.writeInt(state.markers().size());
            for (var e : state.markers().entrySet()) {
                writeId(out, e.getKey());
                Marker m = e.getValue();
                out.writeInt(m.epoch());
                out.writeByte(m.kind().ordinal());
                writeNullable(out, m.reason());
                out.writeLong(m.deadlineMicros());
            }
            out.writeInt(state.records().size());
            for (Record r : state.records().values()) writeRecord(out, r);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The state {@code bytes} describe (none: an empty state), with {@code value}. */
    static PartitionState<TxnValue> decode(byte[] bytes, TxnValue value, UUID tableId, ballot.cql.data.PartitionKey key) {
        if (bytes == null || bytes.length == 0) return PartitionState.of(value);
        try {
            DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
            int version = in.readUnsignedByte();
            if (version != VERSION && version != 1)
                throw new IllegalArgumentException("transaction state in version " + version + "; this node reads 1 and " + VERSION);
            int flags = in.readUnsignedByte();
            Intent<TxnValue> intent = (flags & INTENT) != 0 ? readIntent(in, tableId, key) : null;
            Reservation reservation = (flags & RESERVATION) != 0 ? new Reservation(readId(in), in.readLong(), in.readLong()) : null;
            SortedMap<TxnId, Marker> markers = new TreeMap<>();
            for (int n = count(in); n > 0; n--) {
                TxnId id = readId(in);
                int epoch = in.readInt();
                Marker.Kind kind = Marker.Kind.values()[in.readUnsignedByte()];
                markers.put(id, new Marker(epoch, kind, readNullable(in), in.readLong()));
            }
            SortedMap<TxnId, Record> records = new TreeMap<>();
            for (int n = count(in); n > 0; n--) {
                Record r = readRecord(in);
                records.put(r.id(), r);
            }
            if (in.available() > 0) throw new IllegalArgumentException(in.available() + " bytes after the end of a transaction state");
            return new PartitionState<>(value, intent, reservation, markers, records);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed transaction state: " + e, e);
        }
    }

    static void writeIntent(DataOutputStream out, Intent<TxnValue> intent, UUID tableId, ballot.cql.data.PartitionKey key)
            throws IOException {
        writeId(out, intent.attempt().id());
        out.writeInt(intent.attempt().epoch());
        writeKey(out, intent.home());
        out.writeLong(intent.ageMicros());
        out.writeLong(intent.deadlineMicros());
        // A read-only participant's intent puts back what it read: nothing to write when it is rolled forward.
        PartitionUpdate update = intent.value() instanceof TxnValue.Write w ? w.update()
                : new PartitionUpdate(tableId, key, DeletionTime.LIVE, List.of(), null, List.of());
        writeSized(out, CqlValues.encodeEntry(update, 0).toByteArray());
    }

    static Intent<TxnValue> readIntent(DataInputStream in, UUID tableId, ballot.cql.data.PartitionKey key) throws IOException {
        Attempt attempt = new Attempt(readId(in), in.readInt());
        PartitionKey home = readKey(in);
        long age = in.readLong();
        long deadline = in.readLong();
        PartitionUpdate update = CqlValues.decodeEntry(Bytes.wrap(readSized(in)), tableId, key, 0);
        return new Intent<>(attempt, home, age, deadline, new TxnValue.Write(update));
    }

    static void writeRecord(DataOutputStream out, Record r) throws IOException {
        writeId(out, r.id());
        out.writeInt(r.epoch());
        out.writeByte(r.status().ordinal());
        writeNullable(out, r.reason());
        out.writeLong(r.ageMicros());
        out.writeLong(r.deadlineMicros());
        out.writeInt(r.participants().size());
        for (PartitionKey k : r.participants()) writeKey(out, k);
    }

    static Record readRecord(DataInputStream in) throws IOException {
        TxnId id = readId(in);
        int epoch = in.readInt();
        Record.Status status = Record.Status.values()[in.readUnsignedByte()];
        String reason = readNullable(in);
        long age = in.readLong();
        long deadline = in.readLong();
        List<PartitionKey> participants = new ArrayList<>();
        for (int n = count(in); n > 0; n--) participants.add(readKey(in));
        return new Record(id, epoch, status, reason, age, deadline, participants);
    }

    static void writeId(DataOutputStream out, TxnId id) throws IOException {
        out.writeLong(id.uuid().getMostSignificantBits());
        out.writeLong(id.uuid().getLeastSignificantBits());
    }

    static TxnId readId(DataInputStream in) throws IOException {
        return new TxnId(new UUID(in.readLong(), in.readLong()));
    }

    /** A partition: its table id (16 bytes) and key bytes. */
    static void writeKey(DataOutputStream out, PartitionKey key) throws IOException {
        UUID table = TxnKeys.tableId(key);
        out.writeLong(table.getMostSignificantBits());
        out.writeLong(table.getLeastSignificantBits());
        writeSized(out, key.key());
    }

    static PartitionKey readKey(DataInputStream in) throws IOException {
        UUID table = new UUID(in.readLong(), in.readLong());
        return PartitionKey.of(table.toString(), readSized(in));
    }

    static void writeSized(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static byte[] readSized(DataInputStream in) throws IOException {
        byte[] bytes = new byte[count(in)];
        in.readFully(bytes);
        return bytes;
    }

    static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) out.writeUTF(s);
    }

    static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) throw new IllegalArgumentException("a count of " + n + " with " + in.available() + " bytes left");
        return n;
    }
}

package ballot.transactions;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.StatementSource;
import ballot.lwt.CqlValues;
import ballot.paxos.Bytes;
import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Intent;
import ballot.txn.Record;
import ballot.txn.step.DropRecord;
import ballot.txn.step.Fence;
import ballot.txn.step.Finalize;
import ballot.txn.step.Forget;
import ballot.txn.step.Inspect;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Reply;
import ballot.txn.step.Resolve;
import ballot.txn.step.Restart;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Transaction steps and their replies as they travel to the node that runs them (docs/txn.md §11.1, "Coordination"):
 * <pre>
 * request = tableId(16) · sized key · [source] · count(4) · step*
 * step    = tag(1) · fields (a placement's operation as its participant index into the source)
 * replies = count(4) · (tag(1) · fields)*
 * </pre>
 * The fields use {@link TxnStateCodec}'s encodings of ids, partitions, intents and records.
 */
final class TxnStepCodec {
    private static final int STAGE = 1, RESTART = 2, PLACE = 3, FENCE = 4, FINALIZE = 5, RESOLVE = 6, READ_RECORD = 7,
            INSPECT = 8, ONE_PHASE = 9, FORGET = 10, DROP_RECORD = 11;
    private static final int UNKNOWN = 0, RECORD_SEEN = 1, PRESENCE = 2, RESOLVED = 3, CLEARED = 4, INSPECTION = 5, PLACEMENT = 6;

    private TxnStepCodec() {}

    /** Steps for one partition, bound for the node that coordinates its Paxos rounds. */
    record Request(UUID tableId, PartitionKey key, List<Step<TxnValue>> steps) {}

    /** Whether every step can travel: a placement's operation needs the statement it was built from. */
    static boolean travels(List<Step<TxnValue>> steps) {
        for (Step<TxnValue> step : steps) {
            if (operation(step) instanceof CqlOperation op && op.source() == null) return false;
        }
        return true;
    }

    private static Object operation(Step<TxnValue> step) {
        if (step instanceof Place<TxnValue> p) return p.operation();
        if (step instanceof OnePhase<TxnValue> o) return o.operation();
        return null;
    }

    static byte[] encode(Request request) {
        return write(out -> {
            out.writeLong(request.tableId().getMostSignificantBits());
            out.writeLong(request.tableId().getLeastSignificantBits());
            TxnStateCodec.writeSized(out, bytes(request.key().key()));
            StatementSource source = null;
            for (Step<TxnValue> step : request.steps()) if (operation(step) instanceof CqlOperation op) source = op.source();
            out.writeBoolean(source != null);
            if (source != null) writeSource(out, source);
            out.writeInt(request.steps().size());
            for (Step<TxnValue> step : request.steps()) writeStep(out, step);
        });
    }

    /** The request, with placements' operations rebuilt from its source by {@code rebuild}. */
    static Request decode(byte[] bytes, Function<StatementSource, List<CasRequest>> rebuild) {
        return read(bytes, in -> {
            UUID table = new UUID(in.readLong(), in.readLong());
            PartitionKey key = PartitionKey.of(ByteBuffer.wrap(TxnStateCodec.readSized(in)));
            StatementSource source = in.readBoolean() ? readSource(in) : null;
            List<CasRequest> participants = source == null ? List.of() : rebuild.apply(source);
            List<Step<TxnValue>> steps = new ArrayList<>();
            for (int n = TxnStateCodec.count(in); n > 0; n--) steps.add(readStep(in, index -> {
                if (index < 0 || index >= participants.size())
                    throw new IllegalArgumentException("participant " + index + " of a transaction with " + participants.size());
                return new CqlOperation(participants.get(index), index, source, source.consistency());
            }, table, key));
            return new Request(table, key, steps);
        });
    }

    static byte[] encodeReplies(List<Reply> replies, UUID tableId, PartitionKey key) {
        return write(out -> {
            out.writeInt(replies.size());
            for (Reply r : replies) writeReply(out, r, tableId, key);
        });
    }

    static List<Reply> decodeReplies(byte[] bytes, UUID tableId, PartitionKey key) {
        return read(bytes, in -> {
            List<Reply> replies = new ArrayList<>();
            for (int n = TxnStateCodec.count(in); n > 0; n--) replies.add(readReply(in, tableId, key));
            return replies;
        });
    }

    // ---------------------------------------------------------------- steps

    private static void writeStep(DataOutputStream out, Step<TxnValue> step) throws IOException {
        if (step instanceof Stage<TxnValue> s) {
            out.writeByte(STAGE);
            TxnStateCodec.writeRecord(out, s.record());
        } else if (step instanceof Restart<TxnValue> r) {
            out.writeByte(RESTART);
            TxnStateCodec.writeId(out, r.id());
            out.writeInt(r.fromEpoch());
            out.writeLong(r.ageMicros());
            out.writeLong(r.deadlineMicros());
            writeKeys(out, r.participants());
        } else if (step instanceof Place<TxnValue> p) {
            out.writeByte(PLACE);
            writeAttempt(out, p.attempt());
            TxnStateCodec.writeKey(out, p.home());
            out.writeLong(p.ageMicros());
            out.writeLong(p.deadlineMicros());
            out.writeInt(((CqlOperation) p.operation()).index());
            writeDecisions(out, p.decisions());
            out.writeLong(p.reservationMicros());
        } else if (step instanceof Fence<TxnValue> f) {
            out.writeByte(FENCE);
            writeAttempt(out, f.attempt());
            out.writeLong(f.deadlineMicros());
        } else if (step instanceof Finalize<TxnValue> f) {
            out.writeByte(FINALIZE);
            writeAttempt(out, f.attempt());
            out.writeBoolean(f.commit());
            TxnStateCodec.writeNullable(out, f.reason());
            out.writeLong(f.deadlineMicros());
            writeKeys(out, f.participants());
        } else if (step instanceof Resolve<TxnValue> r) {
            out.writeByte(RESOLVE);
            writeDecision(out, r.decision());
        } else if (step instanceof ReadRecord<TxnValue> r) {
            out.writeByte(READ_RECORD);
            TxnStateCodec.writeId(out, r.id());
        } else if (step instanceof Inspect<TxnValue> i) {
            out.writeByte(INSPECT);
            out.writeLong(i.retentionMicros());
        } else if (step instanceof OnePhase<TxnValue> o) {
            out.writeByte(ONE_PHASE);
            writeAttempt(out, o.attempt());
            out.writeLong(o.ageMicros());
            out.writeLong(o.deadlineMicros());
            out.writeInt(((CqlOperation) o.operation()).index());
            writeDecisions(out, o.decisions());
            writeKeys(out, o.participants());
            out.writeLong(o.reservationMicros());
        } else if (step instanceof Forget<TxnValue> f) {
            out.writeByte(FORGET);
            TxnStateCodec.writeId(out, f.id());
            out.writeLong(f.deadlineMicros());
        } else if (step instanceof DropRecord<TxnValue> d) {
            out.writeByte(DROP_RECORD);
            TxnStateCodec.writeId(out, d.id());
            out.writeLong(d.retentionMicros());
        } else {
            throw new IllegalArgumentException("unknown transaction step " + step);
        }
    }

    private static Step<TxnValue> readStep(DataInputStream in, IntOperation operations, UUID table, PartitionKey key) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case STAGE -> new Stage<>(TxnStateCodec.readRecord(in));
            case RESTART -> new Restart<>(TxnStateCodec.readId(in), in.readInt(), in.readLong(), in.readLong(), readKeys(in));
            case PLACE -> new Place<>(readAttempt(in), TxnStateCodec.readKey(in), in.readLong(), in.readLong(), operations.of(in.readInt()),
                    readDecisions(in), in.readLong());
            case FENCE -> new Fence<>(readAttempt(in), in.readLong());
            case FINALIZE -> new Finalize<>(readAttempt(in), in.readBoolean(), TxnStateCodec.readNullable(in), in.readLong(), readKeys(in));
            case RESOLVE -> new Resolve<>(readDecision(in));
            case READ_RECORD -> new ReadRecord<>(TxnStateCodec.readId(in));
            case INSPECT -> new Inspect<>(in.readLong());
            case ONE_PHASE -> new OnePhase<>(readAttempt(in), in.readLong(), in.readLong(), operations.of(in.readInt()), readDecisions(in),
                    readKeys(in), in.readLong());
            case FORGET -> new Forget<>(TxnStateCodec.readId(in), in.readLong());
            case DROP_RECORD -> new DropRecord<>(TxnStateCodec.readId(in), in.readLong());
            default -> throw new IllegalArgumentException("unknown transaction step " + tag);
        };
    }

    @FunctionalInterface
    private interface IntOperation {
        CqlOperation of(int index);
    }

    // ---------------------------------------------------------------- replies

    private static void writeReply(DataOutputStream out, Reply reply, UUID tableId, PartitionKey key) throws IOException {
        if (reply instanceof Reply.Unknown) {
            out.writeByte(UNKNOWN);
        } else if (reply instanceof Reply.RecordSeen r) {
            out.writeByte(RECORD_SEEN);
            writeNullableRecord(out, r.record());
        } else if (reply instanceof Reply.Presence p) {
            out.writeByte(PRESENCE);
            out.writeBoolean(p.present());
        } else if (reply instanceof Reply.Resolved r) {
            out.writeByte(RESOLVED);
            out.writeBoolean(r.changed());
        } else if (reply instanceof Reply.Cleared c) {
            out.writeByte(CLEARED);
            out.writeBoolean(c.clear());
        } else if (reply instanceof Reply.Inspection<?> i) {
            out.writeByte(INSPECTION);
            writeNullableIntent(out, cast(i.intent()), tableId, key);
            writeRecords(out, i.staging());
            writeRecords(out, i.retired());
        } else if (reply instanceof Reply.Placement<?> p) {
            out.writeByte(PLACEMENT);
            out.writeByte(p.outcome().ordinal());
            writeValue(out, (TxnValue) p.seen());
            writeNullableIntent(out, cast(p.blocker()), tableId, key);
            TxnStateCodec.writeNullable(out, p.reason());
            writeNullableRecord(out, p.record());
        } else {
            throw new IllegalArgumentException("unknown transaction reply " + reply);
        }
    }

    private static Reply readReply(DataInputStream in, UUID tableId, PartitionKey key) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case UNKNOWN -> Reply.UNKNOWN;
            case RECORD_SEEN -> new Reply.RecordSeen(readNullableRecord(in));
            case PRESENCE -> new Reply.Presence(in.readBoolean());
            case RESOLVED -> new Reply.Resolved(in.readBoolean());
            case CLEARED -> new Reply.Cleared(in.readBoolean());
            case INSPECTION -> new Reply.Inspection<>(readNullableIntent(in, tableId, key), readRecords(in), readRecords(in));
            case PLACEMENT -> new Reply.Placement<>(Reply.Placement.Outcome.values()[in.readUnsignedByte()], readValue(in, tableId, key),
                    readNullableIntent(in, tableId, key), TxnStateCodec.readNullable(in), readNullableRecord(in));
            default -> throw new IllegalArgumentException("unknown transaction reply " + tag);
        };
    }

    @SuppressWarnings("unchecked")
    private static Intent<TxnValue> cast(Intent<?> intent) {
        return (Intent<TxnValue>) intent;
    }

    /** A value a step read: absent, rows read, or a pending update. */
    private static void writeValue(DataOutputStream out, TxnValue value) throws IOException {
        if (value == null) out.writeByte(0);
        else if (value instanceof TxnValue.Read r) {
            out.writeByte(1);
            TxnStateCodec.writeSized(out, CqlValues.encodeResult(r.data()).toByteArray());
        } else {
            out.writeByte(2);
            TxnStateCodec.writeSized(out, CqlValues.encodeEntry(((TxnValue.Write) value).update(), 0).toByteArray());
        }
    }

    private static TxnValue readValue(DataInputStream in, UUID tableId, PartitionKey key) throws IOException {
        return switch (in.readUnsignedByte()) {
            case 0 -> null;
            case 1 -> new TxnValue.Read(CqlValues.decodeResultWithTxn(Bytes.wrap(TxnStateCodec.readSized(in))).data());
            case 2 -> new TxnValue.Write(CqlValues.decodeEntry(Bytes.wrap(TxnStateCodec.readSized(in)), tableId, key, 0));
            default -> throw new IllegalArgumentException("unknown value kind");
        };
    }

    private static void writeNullableIntent(DataOutputStream out, Intent<TxnValue> intent, UUID tableId, PartitionKey key) throws IOException {
        out.writeBoolean(intent != null);
        if (intent != null) TxnStateCodec.writeIntent(out, intent, tableId, key);
    }

    private static Intent<TxnValue> readNullableIntent(DataInputStream in, UUID tableId, PartitionKey key) throws IOException {
        return in.readBoolean() ? TxnStateCodec.readIntent(in, tableId, key) : null;
    }

    private static void writeNullableRecord(DataOutputStream out, Record record) throws IOException {
        out.writeBoolean(record != null);
        if (record != null) TxnStateCodec.writeRecord(out, record);
    }

    private static Record readNullableRecord(DataInputStream in) throws IOException {
        return in.readBoolean() ? TxnStateCodec.readRecord(in) : null;
    }

    private static void writeRecords(DataOutputStream out, List<Record> records) throws IOException {
        out.writeInt(records.size());
        for (Record r : records) TxnStateCodec.writeRecord(out, r);
    }

    private static List<Record> readRecords(DataInputStream in) throws IOException {
        List<Record> records = new ArrayList<>();
        for (int n = TxnStateCodec.count(in); n > 0; n--) records.add(TxnStateCodec.readRecord(in));
        return records;
    }

    // ---------------------------------------------------------------- fields

    private static void writeAttempt(DataOutputStream out, Attempt attempt) throws IOException {
        TxnStateCodec.writeId(out, attempt.id());
        out.writeInt(attempt.epoch());
    }

    private static Attempt readAttempt(DataInputStream in) throws IOException {
        return new Attempt(TxnStateCodec.readId(in), in.readInt());
    }

    private static void writeDecision(DataOutputStream out, Decision d) throws IOException {
        writeAttempt(out, d.attempt());
        out.writeBoolean(d.committed());
    }

    private static Decision readDecision(DataInputStream in) throws IOException {
        return new Decision(readAttempt(in), in.readBoolean());
    }

    private static void writeDecisions(DataOutputStream out, List<Decision> decisions) throws IOException {
        out.writeInt(decisions.size());
        for (Decision d : decisions) writeDecision(out, d);
    }

    private static List<Decision> readDecisions(DataInputStream in) throws IOException {
        List<Decision> decisions = new ArrayList<>();
        for (int n = TxnStateCodec.count(in); n > 0; n--) decisions.add(readDecision(in));
        return decisions;
    }

    private static void writeKeys(DataOutputStream out, List<ballot.txn.PartitionKey> keys) throws IOException {
        out.writeInt(keys.size());
        for (ballot.txn.PartitionKey k : keys) TxnStateCodec.writeKey(out, k);
    }

    private static List<ballot.txn.PartitionKey> readKeys(DataInputStream in) throws IOException {
        List<ballot.txn.PartitionKey> keys = new ArrayList<>();
        for (int n = TxnStateCodec.count(in); n > 0; n--) keys.add(TxnStateCodec.readKey(in));
        return keys;
    }

    private static void writeSource(DataOutputStream out, StatementSource source) throws IOException {
        TxnStateCodec.writeNullable(out, source.keyspace());
        out.writeInt(source.statements().size());
        for (StatementSource.Statement s : source.statements()) {
            TxnStateCodec.writeSized(out, s.cql().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.writeInt(s.values().size());
            for (ByteBuffer v : s.values()) { // null, unset (known by identity only) or a value
                out.writeByte(v == null ? 0 : v == QueryOptions.UNSET ? 1 : 2);
                if (v != null && v != QueryOptions.UNSET) TxnStateCodec.writeSized(out, bytes(v));
            }
            out.writeBoolean(s.valueNames() != null);
            if (s.valueNames() != null) {
                out.writeInt(s.valueNames().size());
                for (String n : s.valueNames()) out.writeUTF(n);
            }
        }
        out.writeByte(source.batchType() == null ? -1 : source.batchType().ordinal());
        out.writeUTF(source.consistency().name());
        TxnStateCodec.writeNullable(out, source.serial() == null ? null : source.serial().name());
        out.writeInt(source.nowInSec());
    }

    private static StatementSource readSource(DataInputStream in) throws IOException {
        String keyspace = TxnStateCodec.readNullable(in);
        List<StatementSource.Statement> statements = new ArrayList<>();
        for (int n = TxnStateCodec.count(in); n > 0; n--) {
            String cql = new String(TxnStateCodec.readSized(in), java.nio.charset.StandardCharsets.UTF_8);
            List<ByteBuffer> values = new ArrayList<>();
            for (int v = TxnStateCodec.count(in); v > 0; v--) {
                int kind = in.readUnsignedByte();
                values.add(kind == 0 ? null : kind == 1 ? QueryOptions.UNSET : ByteBuffer.wrap(TxnStateCodec.readSized(in)));
            }
            List<String> names = null;
            if (in.readBoolean()) {
                names = new ArrayList<>();
                for (int v = TxnStateCodec.count(in); v > 0; v--) names.add(in.readUTF());
            }
            statements.add(new StatementSource.Statement(cql, values, names));
        }
        int batch = in.readByte();
        ballot.cql.ConsistencyLevel consistency = ballot.cql.ConsistencyLevel.valueOf(in.readUTF());
        String serial = TxnStateCodec.readNullable(in);
        return new StatementSource(keyspace, statements, batch < 0 ? null : BatchType.values()[batch], consistency,
                serial == null ? null : ballot.cql.ConsistencyLevel.valueOf(serial), in.readInt());
    }

    // ---------------------------------------------------------------- framing

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @FunctionalInterface
    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    @FunctionalInterface
    private interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private static byte[] write(Writer writer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            DataOutputStream out = new DataOutputStream(bytes);
            writer.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(byte[] bytes, Reader<T> reader) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            T value = reader.read(in);
            if (in.available() > 0) throw new IllegalArgumentException(in.available() + " bytes after the end of a transaction message");
            return value;
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed transaction message: " + e, e);
        }
    }
}

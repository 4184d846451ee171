package ballot.bench.cql;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeDecoder;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Execute;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.RequestCodec;
import ballot.cql.protocol.message.ResponseCodec;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.Frame;
import com.datastax.oss.protocol.internal.FrameCodec;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.result.DefaultRows;
import com.datastax.oss.protocol.internal.response.result.RawType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ballot's hand-written CQL codec ({@code ballot.cql.protocol}) against the DataStax native-protocol library's
 * {@link FrameCodec} (the codec inside the Java driver, used here in its server role through
 * {@link NettyPrimitiveCodec}), on the two messages of a prepared single-partition workload:
 *
 * <ul>
 *   <li>{@code decodeExecute*}: one EXECUTE envelope as the Java driver 4 sends it (16-byte statement id, from v5 a
 *       16-byte result metadata id, consistency ONE, page size 5000, skip metadata, a client timestamp, and five bound
 *       values: int, 24-byte text, bigint, uuid, 100-byte text) read from a pooled direct buffer into a request
 *       object. Ballot: {@link EnvelopeDecoder#decodeOne} then {@link RequestCodec#decode}; library:
 *       {@link FrameCodec#decode}.
 *   <li>{@code encodeRows*}: a ROWS result of {@code rows} rows of those five columns, with the column specs left out
 *       ({@code metadata=skip}, what the driver asks for when it executes a prepared SELECT) or included
 *       ({@code full}), written as one contiguous envelope (header and body) into a pooled buffer, which is then
 *       released. Ballot: {@link ResponseCodec#encode} then {@link EnvelopeEncoder#writeTo}, as the v5 path does
 *       before cutting segments; library: {@link FrameCodec#encode}, which sizes the body first and allocates once.
 * </ul>
 *
 * Segment framing (v5 CRCs) and compression are left out of both. Lower is better; report the ratio of each
 * {@code *Library} score to its {@code *Ballot} score from one run.
 *
 * <p>Run: {@code java -jar src-bench/target/benchmarks.jar EnvelopeDecoderBenchmark}; a short run:
 * {@code ... EnvelopeDecoderBenchmark -f 1 -wi 3 -i 3 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class EnvelopeDecoderBenchmark {
    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
    private static final int FRAME_BYTES_MAX = 16 << 20;

    /** The five columns of the workload table, and one value of each. */
    private static final List<CqlType> TYPES = List.of(CqlTypes.INT, CqlTypes.TEXT, CqlTypes.BIGINT, CqlTypes.UUID, CqlTypes.TEXT);
    private static final List<RawType> RAW_TYPES = List.of(
            RawType.PRIMITIVES.get(ProtocolConstants.DataType.INT),
            RawType.PRIMITIVES.get(ProtocolConstants.DataType.VARCHAR),
            RawType.PRIMITIVES.get(ProtocolConstants.DataType.BIGINT),
            RawType.PRIMITIVES.get(ProtocolConstants.DataType.UUID),
            RawType.PRIMITIVES.get(ProtocolConstants.DataType.VARCHAR));
    private static final List<String> NAMES = List.of("k", "name", "count", "id", "payload");

    static ByteBuffer[] values(Random random) {
        return new ByteBuffer[] {
            ByteBuffer.allocate(4).putInt(0, random.nextInt()),
            text(random, 24),
            ByteBuffer.allocate(8).putLong(0, random.nextLong()),
            ByteBuffer.allocate(16).putLong(0, random.nextLong()).putLong(8, random.nextLong()),
            text(random, 100),
        };
    }

    private static ByteBuffer text(Random random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) bytes[i] = (byte) ('a' + random.nextInt(26));
        return ByteBuffer.wrap(bytes);
    }

    /** One encoded EXECUTE envelope in a pooled direct buffer, and both decoders. */
    @State(Scope.Thread)
    public static class ExecuteRequest {
        @Param({"4", "5"})
        int version;

        ByteBuf frame;
        EnvelopeDecoder ballotDecoder;
        FrameCodec<ByteBuf> libraryCodec;

        @Setup
        public void encode() {
            Random random = new Random(42);
            byte[] statementId = new byte[16];
            byte[] metadataId = new byte[16];
            random.nextBytes(statementId);
            random.nextBytes(metadataId);
            ProtocolVersion protocolVersion = ProtocolVersion.fromCode(version);
            QueryOptions options = new QueryOptions(ConsistencyLevel.ONE, Arrays.asList(values(random)), null, true, 5000,
                    null, null, 1_700_000_000_000_000L, null, null);
            Execute execute = new Execute(ByteBuffer.wrap(statementId),
                    protocolVersion.isAtLeast(ProtocolVersion.V5) ? ByteBuffer.wrap(metadataId) : null, options);
            Envelope envelope = RequestCodec.encode(execute, 17, protocolVersion, ALLOC);
            frame = ALLOC.directBuffer(Envelope.HEADER_BYTES + envelope.body().readableBytes());
            EnvelopeEncoder.writeTo(envelope, frame);
            envelope.release();
            ballotDecoder = new EnvelopeDecoder(FRAME_BYTES_MAX);
            libraryCodec = FrameCodec.defaultServer(new NettyPrimitiveCodec(ALLOC), Compressor.none());
        }

        @TearDown
        public void release() {
            frame.release();
        }
    }

    /** One ROWS result as each codec's message objects. */
    @State(Scope.Thread)
    public static class RowsResponse {
        @Param({"1", "100"})
        int rows;

        @Param({"skip", "full"})
        String metadata;

        Rows ballotRows;
        Frame libraryFrame;
        FrameCodec<ByteBuf> libraryCodec;

        @Setup
        public void build() {
            Random random = new Random(7);
            List<ByteBuffer[]> data = new ArrayList<>();
            Queue<List<ByteBuffer>> libraryData = new ArrayDeque<>();
            for (int r = 0; r < rows; r++) {
                ByteBuffer[] row = values(random);
                data.add(row);
                libraryData.add(List.of(row));
            }
            boolean full = metadata.equals("full");
            List<ColumnSpec> specs = new ArrayList<>();
            List<com.datastax.oss.protocol.internal.response.result.ColumnSpec> librarySpecs = new ArrayList<>();
            for (int c = 0; c < NAMES.size(); c++) {
                specs.add(new ColumnSpec("bench", "kv", NAMES.get(c), TYPES.get(c)));
                librarySpecs.add(new com.datastax.oss.protocol.internal.response.result.ColumnSpec("bench", "kv", NAMES.get(c), c, RAW_TYPES.get(c)));
            }
            RowsMetadata ballotMetadata = full ? RowsMetadata.of(specs) : new RowsMetadata(specs.size(), List.of(), true, null, null);
            ballotRows = new Rows(ballotMetadata, data);
            com.datastax.oss.protocol.internal.response.result.RowsMetadata libraryMetadata = full
                    ? new com.datastax.oss.protocol.internal.response.result.RowsMetadata(librarySpecs, null, null, null)
                    : new com.datastax.oss.protocol.internal.response.result.RowsMetadata(librarySpecs.size(), null, null, null);
            libraryFrame = Frame.forResponse(ProtocolConstants.Version.V5, 17, null, Map.of(), List.of(),
                    new DefaultRows(libraryMetadata, libraryData));
            libraryCodec = FrameCodec.defaultServer(new NettyPrimitiveCodec(ALLOC), Compressor.none());
        }
    }

    @Benchmark
    public Request decodeExecuteBallot(ExecuteRequest state) {
        ByteBuf in = state.frame;
        in.readerIndex(0);
        Envelope envelope = (Envelope) state.ballotDecoder.decodeOne(in);
        try {
            return RequestCodec.decode(envelope);
        } finally {
            envelope.release();
        }
    }

    @Benchmark
    public Frame decodeExecuteLibrary(ExecuteRequest state) {
        ByteBuf in = state.frame;
        in.readerIndex(0);
        return state.libraryCodec.decode(in);
    }

    @Benchmark
    public int encodeRowsBallot(RowsResponse state) {
        Envelope envelope = ResponseCodec.encode(state.ballotRows, 17, ProtocolVersion.V5, ALLOC);
        try {
            ByteBuf out = ALLOC.buffer(Envelope.HEADER_BYTES + envelope.body().readableBytes());
            EnvelopeEncoder.writeTo(envelope, out);
            int written = out.readableBytes();
            out.release();
            return written;
        } finally {
            envelope.release();
        }
    }

    @Benchmark
    public int encodeRowsLibrary(RowsResponse state) {
        ByteBuf out = state.libraryCodec.encode(state.libraryFrame);
        int written = out.readableBytes();
        out.release();
        return written;
    }
}

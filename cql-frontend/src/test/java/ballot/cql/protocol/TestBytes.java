package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/** Hex in and out of buffers, and feeding a decoder byte by byte, for codec tests. */
public final class TestBytes {
    /**
     * For buffers the tests themselves make and drop: not leak-tracked, so that a leak report under
     * {@code -Dio.netty.leakDetection.level=paranoid} always points at production code.
     */
    public static final ByteBufAllocator UNTRACKED = new UnpooledByteBufAllocator(false, true);

    private TestBytes() {}

    /** "04 00 00 00 05" (spaces optional) as a buffer. */
    public static ByteBuf hex(String hex) {
        return Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex.replace(" ", "")));
    }

    /** The readable bytes as lowercase hex pairs separated by spaces. */
    public static String hexOf(ByteBuf buf) {
        String dump = ByteBufUtil.hexDump(buf);
        StringBuilder spaced = new StringBuilder();
        for (int i = 0; i < dump.length(); i += 2) {
            if (i > 0) spaced.append(' ');
            spaced.append(dump, i, i + 2);
        }
        return spaced.toString();
    }

    public static byte[] bytesOf(ByteBuf buf) {
        return ByteBufUtil.getBytes(buf);
    }

    /**
     * Gives {@code input} to {@code decoder} one byte at a time, as a network read might, and returns everything it
     * produced; {@code outputsBeforeLastByte} receives what it produced before the last byte arrived.
     */
    public static List<Object> feedByteByByte(EnvelopeStreamDecoder decoder, ByteBuf input, List<Object> outputsBeforeLastByte) {
        ByteBuf cumulation = Unpooled.buffer();
        List<Object> out = new ArrayList<>();
        while (input.isReadable()) {
            if (input.readableBytes() == 1) outputsBeforeLastByte.addAll(out);
            cumulation.writeByte(input.readByte());
            decoder.decode(cumulation, out);
            cumulation.discardReadBytes();
        }
        return out;
    }
}

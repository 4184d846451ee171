package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * Cassandra's {@code LexicalUUIDType}: 16 bytes or empty, ordered as {@link UUID#compareTo} orders them (the high then
 * the low 64 bits, each signed), empty first. Comparable encoding: a presence byte, then the 16 bytes with the sign bit
 * of each half flipped.
 */
final class LexicalUuidType extends CustomType {
    static final LexicalUuidType INSTANCE = new LexicalUuidType();
    private static final long SIGN = Long.MIN_VALUE;

    private LexicalUuidType() {
        super(MARSHAL_PACKAGE + "LexicalUUIDType");
    }

    @Override
    int fixedLength() {
        return 16;
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value.remaining() != 16 && value.hasRemaining())
            throw new InvalidRequestException("UUID should be 16 or 0 bytes (" + value.remaining() + ")");
    }

    @Override
    public int compare(ByteBuffer left, ByteBuffer right) {
        if (!left.hasRemaining() || !right.hasRemaining())
            return Boolean.compare(!right.hasRemaining(), !left.hasRemaining());
        int c = Long.compare(Buffers.getLong(left, 0), Buffers.getLong(right, 0));
        return c != 0 ? c : Long.compare(Buffers.getLong(left, 8), Buffers.getLong(right, 8));
    }

    @Override
    public void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        validate(value);
        if (!value.hasRemaining()) {
            out.write(0);
            return;
        }
        out.write(1);
        out.writeBigEndian(Buffers.getLong(value, 0) ^ SIGN, 8);
        out.writeBigEndian(Buffers.getLong(value, 8) ^ SIGN, 8);
    }

    @Override
    public ByteBuffer decodeComparable(ComparableBytesReader in) {
        int marker = in.read();
        if (marker == 0)
            return Buffers.empty();
        if (marker != 1)
            throw in.malformed("bad presence byte " + marker + " for " + cqlName());
        long high = in.readBigEndian(8) ^ SIGN;
        return ByteBuffer.allocate(16).putLong(high).putLong(in.readBigEndian(8) ^ SIGN).flip();
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        validate(value);
        return value;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (text.isEmpty())
            return Buffers.empty();
        try {
            UUID uuid = UUID.fromString(text);
            return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                    .putLong(uuid.getLeastSignificantBits()).flip();
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("unable to make UUID from '" + text + "'");
        }
    }

    @Override
    public String asString(ByteBuffer value) {
        validate(value);
        return value.hasRemaining() ? new UUID(Buffers.getLong(value, 0), Buffers.getLong(value, 8)).toString() : "";
    }
}

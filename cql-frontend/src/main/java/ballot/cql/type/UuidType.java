package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * {@code uuid} and {@code timeuuid} (version 1 only): 16 bytes, or empty. Java form: {@code UUID}.
 *
 * <p>Order, as Cassandra's: {@code uuid} compares the version first, then for version 1 the timestamp (reordered
 * {@code time_hi, time_mid, time_low}) and for others the high 64 bits unsigned, then the low 64 bits unsigned.
 * {@code timeuuid} compares the timestamp, then the low 8 bytes as <em>signed</em> bytes. Comparable encoding: the
 * reordered high 64 bits (version nibble first), then the low 64 bits, each byte's sign bit flipped for timeuuid.
 */
final class UuidType extends NativeType {
    private static final Pattern FORM =
            Pattern.compile("[A-Fa-f0-9]{8}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{12}");
    private static final long SIGN_BITS = 0x8080808080808080L;

    private final boolean timeBased;

    private UuidType(Kind kind, String name, int optionId, String marshalClass, boolean timeBased) {
        super(kind, name, optionId, marshalClass);
        this.timeBased = timeBased;
    }

    static UuidType uuid() {
        return new UuidType(Kind.UUID, "uuid", 0x000C, "UUIDType", false);
    }

    static UuidType timeuuid() {
        return new UuidType(Kind.TIMEUUID, "timeuuid", 0x000F, "TimeUUIDType", true);
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    int fixedLength() {
        return 16;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != 16)
            throw invalid("UUID should be 16 or 0 bytes (%d)", value.remaining());
        int version = version(Buffers.getLong(value, 0));
        if (timeBased && version != 1)
            throw invalid("Invalid version for TimeUUID type: 0x%x", version);
    }

    private static int version(long msb) {
        return (int) ((msb >>> 12) & 0xF);
    }

    /** The 60-bit timestamp first, with the version above it: {@code time_hi_and_version, time_mid, time_low}. */
    static long reorderTimestamp(long msb) {
        return (msb << 48) | ((msb << 16) & 0xFFFF00000000L) | (msb >>> 32);
    }

    static long restoreTimestamp(long reordered) {
        return (reordered >>> 48) | ((reordered >>> 16) & 0xFFFF0000L) | (reordered << 32);
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return new UUID(Buffers.getLong(value, 0), Buffers.getLong(value, 8));
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof UUID))
            throw invalid("Expected a UUID for %s, got %s", cqlName(), value.getClass().getSimpleName());
        UUID uuid = (UUID) value;
        ByteBuffer out = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).flip();
        validate(out);
        return out;
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        long msbL = Buffers.getLong(left, 0);
        long msbR = Buffers.getLong(right, 0);
        long lsbL = Buffers.getLong(left, 8);
        long lsbR = Buffers.getLong(right, 8);
        if (timeBased) {
            int c = Long.compare(reorderTimestamp(msbL), reorderTimestamp(msbR));
            return c != 0 ? c : Long.compare(lsbL ^ 0x0080808080808080L, lsbR ^ 0x0080808080808080L);
        }
        int versionL = version(msbL);
        int versionR = version(msbR);
        if (versionL != versionR)
            return Integer.compare(versionL, versionR);
        int c = versionL == 1 ? Long.compare(reorderTimestamp(msbL), reorderTimestamp(msbR))
                              : Long.compareUnsigned(msbL, msbR);
        return c != 0 ? c : Long.compareUnsigned(lsbL, lsbR);
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        long msb = Buffers.getLong(value, 0);
        long version = version(msb);
        out.writeBigEndian(version == 1 ? reorderTimestamp(msb)
                : (version << 60) | ((msb >>> 4) & 0x0FFFFFFFFFFFF000L) | (msb & 0xFFFL), 8);
        long lsb = Buffers.getLong(value, 8);
        out.writeBigEndian(timeBased ? lsb ^ SIGN_BITS : lsb, 8);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        long high = in.readBigEndian(8);
        long version = high >>> 60;
        long msb = version == 1 ? restoreTimestamp(high)
                : ((high << 4) & 0xFFFFFFFFFFFF0000L) | (version << 12) | (high & 0xFFFL);
        long lsb = in.readBigEndian(8);
        return ByteBuffer.allocate(16).putLong(msb).putLong(timeBased ? lsb ^ SIGN_BITS : lsb).flip();
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.UUID;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (text.isEmpty())
            return Buffers.empty();
        if (!FORM.matcher(text).matches())
            throw new InvalidRequestException(timeBased ? "Unknown timeuuid representation: " + text
                                                        : "Unable to make UUID from '" + text + "'");
        UUID uuid = UUID.fromString(text);
        if (timeBased && uuid.version() != 1)
            throw new InvalidRequestException("TimeUUID supports only version 1 UUIDs");
        return decompose(uuid);
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return composeNonEmpty(value).toString();
    }

    @Override
    String toJsonNonEmpty(ByteBuffer value) {
        return '"' + asStringNonEmpty(value) + '"';
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        throw invalid("Expected a string representation of a %s, but got a %s", cqlName(), Json.describe(parsed));
    }
}

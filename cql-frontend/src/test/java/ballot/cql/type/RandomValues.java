package ballot.cql.type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Valid serialized values of any type from a seeded {@link Random}, biased towards edges: empty values, zero bytes,
 * extreme numbers, NaN payloads, non-minimal varints, decimals with trailing zeros, short tuples, and small
 * alphabets so that equal values recur. Sets and maps come out sorted, as values built by this package are.
 */
final class RandomValues {
    private static final String[] ALPHABET = {"a", "b", "\u0000", "\u0001", "\u00e9", "\ud83d\ude00", "'", ":", "@", "\u00ff"};

    private final Random random;

    RandomValues(long seed) {
        this.random = new Random(seed);
    }

    ByteBuffer next(CqlType type) {
        if (type.allowsEmpty() && random.nextInt(12) == 0)
            return ByteBuffer.allocate(0);
        switch (type.kind()) {
            case ASCII: return ByteBuffer.wrap(string(true).getBytes(StandardCharsets.US_ASCII));
            case TEXT: return ByteBuffer.wrap(string(false).getBytes(StandardCharsets.UTF_8));
            case BLOB: return bytes(random.nextInt(5));
            case BOOLEAN: return ByteBuffer.wrap(new byte[] {(byte) (random.nextInt(4) == 0 ? random.nextInt(256) : random.nextInt(2))});
            case TINYINT: return fixed(1);
            case SMALLINT: return fixed(2);
            case INT:
            case DATE: return fixed(4);
            case BIGINT:
            case COUNTER:
            case TIMESTAMP: return fixed(8);
            case TIME: return ByteBuffer.allocate(8).putLong(0, (long) (random.nextDouble() * 86_400e9));
            case FLOAT: return ByteBuffer.allocate(4).putFloat(0, (float) floating());
            case DOUBLE: return ByteBuffer.allocate(8).putDouble(0, floating());
            case UUID: return uuid(random.nextInt(6));
            case TIMEUUID: return uuid(1);
            case INET: return bytes(random.nextBoolean() ? 4 : 16);
            case VARINT: return varint();
            case DECIMAL: return type.decompose(new BigDecimal(new BigInteger(varint().array()), random.nextInt(11) - 5));
            case DURATION: {
                int sign = random.nextBoolean() ? 1 : -1;
                return type.decompose(new CqlDuration(sign * random.nextInt(40), sign * random.nextInt(40),
                        sign * (long) (random.nextDouble() * 1e14)));
            }
            case LIST: return ((ListType) type).pack(elements(((ListType) type).elements()));
            case SET: return ((SetType) type).pack(elements(((SetType) type).elements()));
            case MAP: {
                MapType map = (MapType) type;
                List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--)
                    entries.add(Map.entry(next(map.keys()), next(map.values())));
                return map.pack(entries);
            }
            case TUPLE: return ((TupleType) type).pack(fields(((TupleType) type).fieldTypes()));
            case UDT: return ((UserType) type).pack(fields(((UserType) type).fieldTypes()));
            case VECTOR: {
                VectorType vector = (VectorType) type;
                List<ByteBuffer> values = new ArrayList<>();
                for (int i = 0; i < vector.dimension(); i++)
                    values.add(nonEmpty(vector.elements().freeze()));
                return vector.pack(values);
            }
            default: throw new AssertionError(type);
        }
    }


    private ByteBuffer nonEmpty(CqlType type) {
        ByteBuffer v = next(type);
        while (!v.hasRemaining())
            v = next(type);
        return v;
    }

    private List<ByteBuffer> elements(CqlType type) {
        List<ByteBuffer> values = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--)
            values.add(next(type));
        return values;
    }

    private List<ByteBuffer> fields(List<CqlType> types) {
        int count = random.nextInt(4) == 0 ? random.nextInt(types.size() + 1) : types.size();
        List<ByteBuffer> values = new ArrayList<>();
        for (int i = 0; i < count; i++)
            values.add(random.nextInt(4) == 0 ? null : next(types.get(i)));
        return values;
    }

    private String string(boolean ascii) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
            String c = ALPHABET[random.nextInt(ascii ? 5 : ALPHABET.length)];
            sb.append(ascii && c.charAt(0) > 127 ? "z" : c);
        }
        return sb.toString();
    }

    private ByteBuffer bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = (byte) (random.nextInt(3) == 0 ? random.nextInt(3) - 1 : random.nextInt(256));
        return ByteBuffer.wrap(b);
    }

    /** {@code width} big-endian bytes of a small, extreme or random long. */
    private ByteBuffer fixed(int width) {
        long v;
        switch (random.nextInt(4)) {
            case 0: v = random.nextInt(5) - 2; break;
            case 1: v = random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE; break;
            case 2: v = random.nextInt(1000) - 500; break;
            default: v = random.nextLong();
        }
        ByteBuffer b = ByteBuffer.allocate(width);
        for (int i = width - 1; i >= 0; i--, v >>= 8)
            b.put(i, (byte) v);
        return b;
    }

    private double floating() {
        switch (random.nextInt(6)) {
            case 0: return new double[] {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                    Double.MIN_VALUE, -Double.MAX_VALUE, Double.longBitsToDouble(0x7ff0000000000abcL)}[random.nextInt(8)];
            case 1: return random.nextInt(5) - 2;
            default: return random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
        }
    }

    private ByteBuffer uuid(int version) {
        long msb = random.nextInt(3) == 0 ? random.nextInt(4) : random.nextLong();
        long lsb = random.nextInt(3) == 0 ? random.nextInt(4) - 2 : random.nextLong();
        msb = (msb & ~0xF000L) | ((long) version << 12);
        return ByteBuffer.allocate(16).putLong(0, msb).putLong(8, lsb);
    }

    /** Minimal or not (leading 00/FF), short or up to 300 bytes. */
    private ByteBuffer varint() {
        switch (random.nextInt(4)) {
            case 0: {
                byte[] b = new byte[1 + random.nextInt(3)];
                b[b.length - 1] = (byte) (random.nextInt(5) - 2);
                for (int i = 0; i < b.length - 1; i++)
                    b[i] = (byte) (b[b.length - 1] < 0 ? -1 : 0);
                return ByteBuffer.wrap(b);
            }
            case 1: return bytes(1 + random.nextInt(300));
            default: return bytes(1 + random.nextInt(9));
        }
    }
}

package ballot.cql.type;

import java.nio.ByteBuffer;

/** Lower-case hexadecimal, as Cassandra prints blobs. */
final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    static String encode(ByteBuffer value) {
        StringBuilder sb = new StringBuilder(value.remaining() * 2);
        for (int i = value.position(); i < value.limit(); i++) {
            int b = value.get(i) & 0xFF;
            sb.append(DIGITS[b >>> 4]).append(DIGITS[b & 0xF]);
        }
        return sb.toString();
    }

    /** Decodes an even-length run of hex digits, either case. */
    static byte[] decode(String hex) {
        if ((hex.length() & 1) != 0)
            throw new NumberFormatException("An hex string representing bytes must have an even length");
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16);
            int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0)
                throw new NumberFormatException("Non-hex characters in " + hex);
            bytes[i] = (byte) ((hi << 4) | lo);
        }
        return bytes;
    }
}

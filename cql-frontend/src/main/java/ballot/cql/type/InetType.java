package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/**
 * {@code inet}: an IPv4 (4 bytes) or IPv6 (16 bytes) address, or empty, compared as unsigned bytes. Java form:
 * {@code InetAddress}. Literals are IP addresses only: unlike Cassandra, host names are not resolved.
 */
final class InetType extends NativeType {
    InetType() {
        super(Kind.INET, "inet", 0x0010, "InetAddressType");
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != 4 && value.remaining() != 16)
            throw invalid("Expected 4 or 16 byte inetaddress; got %s", Hex.encode(value));
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        try {
            return InetAddress.getByAddress(Buffers.toArray(value));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("validated address rejected", e);
        }
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof InetAddress))
            throw invalid("Expected an InetAddress for inet, got %s", value.getClass().getSimpleName());
        return ByteBuffer.wrap(((InetAddress) value).getAddress());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Buffers.compareUnsigned(left, right);
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        out.writeEscaped(value, 0, value.remaining());
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        byte[] address = in.readEscaped();
        if (address.length != 4 && address.length != 16)
            throw in.malformed("inet address of " + address.length + " bytes");
        return ByteBuffer.wrap(address);
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.STRING;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (text.isEmpty())
            return Buffers.empty();
        byte[] address = parse(text);
        if (address == null)
            throw new InvalidRequestException("Unable to make inet address from '" + text + "'");
        return ByteBuffer.wrap(address);
    }

    /**
     * The address a literal names, or null. IPv4 takes Java's forms ({@code 1.2.3.4}, {@code 1.2.3} = 1.2.0.3,
     * {@code 123} = 0.0.0.123); IPv6 may be bracketed and carry a {@code %zone}, which is dropped. No name lookup:
     * InetAddress only ever sees strings that are IPv6 literals, which it parses without resolving.
     */
    static byte[] parse(String text) {
        String s = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (s.indexOf(':') < 0)
            return s.equals(text) ? parseIpv4(s) : null;
        int zone = s.indexOf('%');
        String address = zone >= 0 ? s.substring(0, zone) : s;
        for (int i = 0; i < address.length(); i++) {
            char c = address.charAt(i);
            if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.'))
                return null;
        }
        try {
            byte[] bytes = InetAddress.getByName("[" + address + "]").getAddress();
            return bytes;
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }

    private static byte[] parseIpv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length > 4)
            return null;
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 10)
                return null;
            for (int j = 0; j < part.length(); j++)
                if (part.charAt(j) < '0' || part.charAt(j) > '9')
                    return null;
            values[i] = Long.parseLong(part);
            if (i < parts.length - 1 && values[i] > 0xFF)
                return null;
        }
        long last = values[parts.length - 1];
        if (last >= 1L << (8 * (5 - parts.length)))
            return null; // the last part fills the remaining bytes
        byte[] out = new byte[4];
        for (int i = 0; i < parts.length - 1; i++)
            out[i] = (byte) values[i];
        for (int i = 3; i >= parts.length - 1; i--) {
            out[i] = (byte) last;
            last >>>= 8;
        }
        return out;
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return ((InetAddress) composeNonEmpty(value)).getHostAddress();
    }

    @Override
    boolean quotesLiterals() {
        return true;
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        throw invalid("Expected a string representation of an inet value, but got a %s", Json.describe(parsed));
    }
}

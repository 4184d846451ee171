package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** {@code text} (alias {@code varchar}; UTF-8) and {@code ascii} (bytes 0-127). Java form: {@code String}. */
final class TextType extends NativeType {
    private final boolean ascii;

    private TextType(Kind kind, String name, int optionId, String marshalClass, boolean ascii) {
        super(kind, name, optionId, marshalClass);
        this.ascii = ascii;
    }

    static TextType text() {
        return new TextType(Kind.TEXT, "text", 0x000D, "UTF8Type", false);
    }

    static TextType ascii() {
        return new TextType(Kind.ASCII, "ascii", 0x0001, "AsciiType", true);
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (ascii) {
            for (int i = value.position(); i < value.limit(); i++)
                if (value.get(i) < 0)
                    throw invalid("Invalid byte for ascii: %d", value.get(i));
            return;
        }
        if (!isUtf8(value))
            throw new InvalidRequestException("String didn't validate.");
    }

    /**
     * Strict UTF-8 (what Java's decoder accepts: no overlong forms, no surrogates, nothing above U+10FFFF), checked
     * without allocating, since keys validate every text component. Cassandra's own check is laxer.
     */
    static boolean isUtf8(ByteBuffer value) {
        int i = value.position();
        int end = value.limit();
        // ASCII fast path: eight bytes at a time while none has its high bit set.
        while (end - i >= 8 && (value.getLong(i) & 0x8080808080808080L) == 0)
            i += 8;
        while (i < end) {
            int b = value.get(i++) & 0xFF;
            if (b < 0x80)
                continue;
            int extra;
            int min = 0x80;
            int max = 0xBF; // allowed range of the first continuation byte
            if (b >= 0xC2 && b <= 0xDF) {
                extra = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                extra = 2;
                if (b == 0xE0)
                    min = 0xA0;
                else if (b == 0xED)
                    max = 0x9F;
            } else if (b >= 0xF0 && b <= 0xF4) {
                extra = 3;
                if (b == 0xF0)
                    min = 0x90;
                else if (b == 0xF4)
                    max = 0x8F;
            } else {
                return false;
            }
            if (end - i < extra)
                return false;
            int first = value.get(i) & 0xFF;
            if (first < min || first > max)
                return false;
            for (int k = 1; k < extra; k++)
                if ((value.get(i + k) & 0xC0) != 0x80)
                    return false;
            i += extra;
        }
        return true;
    }

    @Override
    Object composeEmpty() {
        return "";
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return StandardCharsets.UTF_8.decode(value.duplicate()).toString();
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof String))
            throw invalid("Expected a String for %s, got %s", cqlName(), value.getClass().getSimpleName());
        return fromString((String) value);
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
        return ByteBuffer.wrap(in.readEscaped());
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.STRING;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (!ascii)
            return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        try {
            return StandardCharsets.US_ASCII.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text));
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException("Invalid ASCII character in string literal: " + e, e);
        }
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return (String) composeNonEmpty(value);
    }

    @Override
    String emptyLiteral() {
        return "''";
    }

    @Override
    boolean quotesLiterals() {
        return true;
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (!(parsed instanceof String))
            throw invalid("Expected %s string, but got a %s", ascii ? "an ascii" : "a UTF-8", Json.describe(parsed));
        return fromString((String) parsed);
    }
}

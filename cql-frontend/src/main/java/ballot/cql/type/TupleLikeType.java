package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What tuples and UDTs share: the serialized form is the fields in order, each {@code [int length][bytes]} with
 * length -1 for null. A value may stop early (fields added by ALTER TYPE are missing from old values): missing and
 * trailing null fields compare as equal, and the canonical form has every field. The empty buffer is a distinct
 * value that sorts first.
 *
 * <p>Comparable encoding: {@code 00} for empty; otherwise {@code 01}, then for each field up to the last non-null
 * one {@code 01} (null) or {@code 02} and the field's encoding, then {@code 00}.
 */
abstract class TupleLikeType extends CqlType {
    final List<CqlType> fieldTypes;

    TupleLikeType(List<CqlType> fieldTypes) {
        this.fieldTypes = Collections.unmodifiableList(new ArrayList<>(fieldTypes));
    }

    public final int size() {
        return fieldTypes.size();
    }

    @Override
    public final boolean allowsEmpty() {
        return true;
    }

    @Override
    public final boolean referencesDuration() {
        for (CqlType t : fieldTypes)
            if (t.referencesDuration())
                return true;
        return false;
    }

    /** Names field {@code i} in validation messages. */
    abstract String describeField(int i);

    abstract String valueNoun();

    /** Fields as stored: an array of {@link #size()} buffers, null for null or missing fields. */
    final ByteBuffer[] split(ByteBuffer value) {
        ByteBuffer[] fields = new ByteBuffer[size()];
        int remaining = value.remaining();
        int offset = 0;
        for (int i = 0; i < fields.length && offset < remaining; i++) {
            if (remaining - offset < 4)
                throw new InvalidRequestException("Not enough bytes to read size of " + describeField(i));
            int length = Buffers.getInt(value, offset);
            offset += 4;
            if (length < 0)
                continue;
            if (remaining - offset < length)
                throw new InvalidRequestException("Not enough bytes to read " + describeField(i));
            fields[i] = Buffers.slice(value, offset, length);
            offset += length;
        }
        if (offset < remaining)
            throw new InvalidRequestException("Invalid remaining data after end of " + valueNoun() + " value");
        return fields;
    }

    /** How many fields the value actually carries (null or not). */
    static int presentFields(ByteBuffer value, int max) {
        int count = 0;
        for (int offset = 0; offset < value.remaining() && count < max; count++) {
            int length = Buffers.getInt(value, offset);
            offset += 4 + Math.max(length, 0);
        }
        return count;
    }

    static ByteBuffer join(ByteBuffer[] fields) {
        int size = 0;
        for (ByteBuffer f : fields)
            size += 4 + (f == null ? 0 : f.remaining());
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer f : fields) {
            if (f == null)
                out.putInt(-1);
            else
                out.putInt(f.remaining()).put(f.duplicate());
        }
        return out.flip();
    }

    @Override
    public void validate(ByteBuffer value) {
        ByteBuffer[] fields = split(value);
        for (int i = 0; i < fields.length; i++)
            if (fields[i] != null)
                validateField(i, fields[i]);
    }

    void validateField(int i, ByteBuffer field) {
        fieldTypes.get(i).validate(field);
    }

    /** Serializes field values, null for null; fewer than {@link #size()} are padded with nulls. */
    final ByteBuffer packFields(List<ByteBuffer> values) {
        if (values.size() > size())
            throw new InvalidRequestException(String.format(
                    "Invalid tuple literal: too many elements. Type %s expects %d but got %d", cqlName(), size(), values.size()));
        ByteBuffer[] fields = new ByteBuffer[size()];
        for (int i = 0; i < values.size(); i++) {
            fields[i] = values.get(i);
            if (fields[i] != null)
                validateField(i, fields[i]);
        }
        return join(fields);
    }

    /** The serialized fields of a value, {@link #size()} of them, null for null or missing fields. */
    public final List<ByteBuffer> unpack(ByteBuffer value) {
        validate(value);
        return Arrays.asList(split(value));
    }

    @Override
    public final int compare(ByteBuffer left, ByteBuffer right) {
        if (!left.hasRemaining() || !right.hasRemaining())
            return Boolean.compare(!right.hasRemaining(), !left.hasRemaining());
        ByteBuffer[] l = split(left);
        ByteBuffer[] r = split(right);
        for (int i = 0; i < l.length; i++) {
            if (l[i] == null || r[i] == null) {
                if (l[i] != r[i])
                    return l[i] == null ? -1 : 1;
                continue;
            }
            int c = fieldTypes.get(i).compare(l[i], r[i]);
            if (c != 0)
                return c;
        }
        return 0;
    }

    @Override
    public final void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        if (!isAllowedInPrimaryKey())
            throw new InvalidRequestException("Values of type " + cqlName() + " cannot be part of a primary key");
        if (!value.hasRemaining()) {
            out.write(0);
            return;
        }
        ByteBuffer[] fields = split(value);
        int last = fields.length - 1;
        while (last >= 0 && fields[last] == null)
            last--;
        out.write(1);
        for (int i = 0; i <= last; i++) {
            if (fields[i] == null) {
                out.write(1);
            } else {
                out.write(2);
                fieldTypes.get(i).encodeComparable(fields[i], out);
            }
        }
        out.write(0);
    }

    @Override
    public final ByteBuffer decodeComparable(ComparableBytesReader in) {
        int presence = in.read();
        if (presence == 0)
            return Buffers.empty();
        if (presence != 1)
            throw in.malformed("bad presence byte " + presence + " for " + cqlName());
        ByteBuffer[] fields = new ByteBuffer[size()];
        int i = 0;
        for (int marker = in.read(); marker != 0; marker = in.read(), i++) {
            if (i >= fields.length)
                throw in.malformed("more fields than " + cqlName() + " has");
            if (marker == 2)
                fields[i] = fieldTypes.get(i).decodeComparable(in);
            else if (marker != 1)
                throw in.malformed("bad field marker " + marker);
        }
        return join(fields);
    }

    @Override
    public final ByteBuffer canonical(ByteBuffer value) {
        return eachField(value, true);
    }

    @Override
    public final ByteBuffer normalized(ByteBuffer value) {
        return eachField(value, false);
    }

    private ByteBuffer eachField(ByteBuffer value, boolean canonical) {
        validate(value);
        if (!value.hasRemaining())
            return Buffers.empty();
        ByteBuffer[] fields = split(value);
        for (int i = 0; i < fields.length; i++) {
            CqlType type = fieldTypes.get(i);
            if (fields[i] != null) fields[i] = canonical ? type.canonical(fields[i]) : type.normalized(fields[i]);
        }
        return join(fields);
    }

    // ---------------------------------------------------------------- text

    /** Fields joined by {@code :}, null as {@code @}, with {@code :} and {@code @} escaped by a backslash. */
    @Override
    public final String asString(ByteBuffer value) {
        validate(value);
        ByteBuffer[] fields = split(value);
        int present = presentFields(value, size());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < present; i++) {
            if (i > 0)
                sb.append(':');
            if (fields[i] == null)
                sb.append('@');
            else
                sb.append(fieldTypes.get(i).asString(fields[i]).replace(":", "\\:").replace("@", "\\@"));
        }
        return sb.toString();
    }

    @Override
    public final ByteBuffer fromString(String text) {
        List<String> parts = splitOnColons(text);
        if (parts.size() > size())
            throw new InvalidRequestException(String.format(
                    "Invalid tuple literal: too many elements. Type %s expects %d but got %d", cqlName(), size(), parts.size()));
        ByteBuffer[] fields = new ByteBuffer[parts.size()];
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            if (!part.equals("@"))
                fields[i] = fieldTypes.get(i).fromString(part.replace("\\:", ":").replace("\\@", "@"));
        }
        return join(fields);
    }

    /** Splits on each {@code :} whose previous character is not a backslash, as Cassandra does. */
    static List<String> splitOnColons(String text) {
        List<String> parts = new ArrayList<>();
        if (text.isEmpty())
            return parts;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == ':' && (i == 0 || text.charAt(i - 1) != '\\')) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    @Override
    public final String toJson(ByteBuffer value) {
        if (value == null)
            return "null";
        validate(value);
        return toJsonFields(split(value)); // an empty value prints as all fields null
    }

    abstract String toJsonFields(ByteBuffer[] fields);

    @Override
    public final ByteBuffer fromJson(Object parsed) {
        if (parsed == null)
            return null;
        Object decoded = parsed instanceof String ? Json.decode((String) parsed) : parsed;
        return decoded == null ? null : fromJsonNonNull(decoded);
    }

    abstract ByteBuffer fromJsonNonNull(Object parsed);

    final String fieldTypesMarshalName(boolean ignoreFreezing) {
        StringBuilder sb = new StringBuilder();
        for (CqlType t : fieldTypes)
            sb.append(sb.length() > 0 ? "," : "").append(t.marshalName(ignoreFreezing));
        return sb.toString();
    }
}

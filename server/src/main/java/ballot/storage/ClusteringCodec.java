package ballot.storage;

import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.ComparableBytesReader;
import ballot.cql.type.ComparableBytesWriter;
import ballot.cql.type.CqlType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Clustering values to and from their key bytes: each component's order-preserving, prefix-free encoding, inverted
 * for a DESC column, concatenated. Unsigned byte order of the result is the table's clustering order, and the
 * encoding of a prefix is a byte prefix of the encoding of every clustering that starts with it.
 */
final class ClusteringCodec {
    private final CqlType[] types;
    private final boolean[] descending;
    private final boolean[] manyForms;

    ClusteringCodec(TableMetadata table) {
        List<ColumnMetadata> clustering = table.clustering();
        types = new CqlType[clustering.size()];
        descending = new boolean[clustering.size()];
        manyForms = new boolean[clustering.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = clustering.get(i).type();
            descending[i] = clustering.get(i).descending();
            manyForms[i] = !types[i].hasOneForm();
        }
    }

    /**
     * Whether {@link #decode} gives {@code values} back from their encoding: false for a value written otherwise than
     * its canonical form (the decimal 2.50, a tuple without its last fields), which the row's fragment then keeps.
     */
    boolean decodesAsWritten(ByteBuffer[] values) {
        for (int i = 0; i < values.length && i < types.length; i++)
            if (manyForms[i] && !types[i].canonical(values[i]).equals(values[i])) return false;
        return true;
    }

    int size() {
        return types.length;
    }

    /** Encodes a full clustering or a prefix of one. */
    byte[] encode(ByteBuffer[] prefix) {
        if (prefix.length == 0) return new byte[0];
        ComparableBytesWriter out = new ComparableBytesWriter(16 * prefix.length);
        for (int i = 0; i < prefix.length; i++) {
            int start = out.length();
            types[i].encodeComparable(prefix[i], out);
            if (descending[i]) out.invert(start, out.length());
        }
        return out.toByteArray();
    }

    /** Decodes the components present in {@code bytes[offset, offset + length)}. */
    ByteBuffer[] decode(byte[] bytes, int offset, int length) {
        if (length == 0) return new ByteBuffer[0];
        ComparableBytesReader in = new ComparableBytesReader(bytes, offset, length);
        List<ByteBuffer> values = new ArrayList<>(types.length);
        for (int i = 0; i < types.length && in.hasRemaining(); i++) {
            in.inverted(descending[i]);
            values.add(types[i].decodeComparable(in));
        }
        if (in.hasRemaining()) throw new IllegalStateException("corrupt clustering key: bytes left after " + types.length + " components");
        return values.toArray(new ByteBuffer[0]);
    }
}

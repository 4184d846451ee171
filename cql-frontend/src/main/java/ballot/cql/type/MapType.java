package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code map<K, V>}, frozen or not: entries sorted by key, keys distinct. Java form: a {@code Map} in key order.
 * Literal {@code {k: v}}; JSON {@code {"k": v}}, non-string keys written as JSON strings of their JSON form.
 */
public final class MapType extends CollectionType {
    private final CqlType keys;
    private final CqlType values;

    MapType(CqlType keys, CqlType values, boolean frozen) {
        super(frozen);
        this.keys = keys;
        this.values = values;
    }

    public CqlType keys() {
        return keys;
    }

    public CqlType values() {
        return values;
    }

    @Override
    public Kind kind() {
        return Kind.MAP;
    }

    @Override
    String noun() {
        return "map";
    }

    @Override
    int valuesPerElement() {
        return 2;
    }

    @Override
    CqlType typeAt(int index) {
        return index % 2 == 0 ? keys : values;
    }

    @Override
    public String cqlName() {
        String name = "map<" + keys.cqlName() + ", " + values.cqlName() + ">";
        return frozen ? "frozen<" + name + ">" : name;
    }

    @Override
    public MapType freeze() {
        return frozen ? this : new MapType(keys, values, true);
    }

    @Override
    public boolean referencesDuration() {
        return values.referencesDuration();
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0x0021);
        keys.writeTypeOption(out, protocolVersion);
        values.writeTypeOption(out, protocolVersion);
    }

    @Override
    String marshalName(boolean ignoreFreezing) {
        return marshalName(ignoreFreezing, "MapType", keys, values);
    }

    /**
     * Serializes the entries of a map literal: sorted by key; of entries with equal keys the last one wins. Keys and
     * values must be non-null valid values.
     */
    public ByteBuffer pack(List<Map.Entry<ByteBuffer, ByteBuffer>> entries) {
        TreeMap<ByteBuffer, ByteBuffer> sorted = new TreeMap<>(keys::compare);
        for (Map.Entry<ByteBuffer, ByteBuffer> e : entries) {
            if (e.getKey() == null || e.getValue() == null)
                throw new InvalidRequestException("null is not supported inside collections");
            keys.validate(e.getKey());
            values.validate(e.getValue());
            sorted.remove(e.getKey()); // keep the last key bytes as well as the last value
            sorted.put(e.getKey(), e.getValue());
        }
        List<ByteBuffer> flat = new ArrayList<>(sorted.size() * 2);
        sorted.forEach((k, v) -> {
            flat.add(k);
            flat.add(v);
        });
        return join(flat, sorted.size());
    }

    /** The serialized entries of a map value, in stored order. */
    public List<Map.Entry<ByteBuffer, ByteBuffer>> unpack(ByteBuffer value) {
        validate(value);
        List<ByteBuffer> flat = split(value);
        List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i < flat.size(); i += 2)
            entries.add(new SimpleImmutableEntry<>(flat.get(i), flat.get(i + 1)));
        return entries;
    }

    @Override
    Object composeValid(List<ByteBuffer> flat) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2)
            out.put(keys.compose(flat.get(i)), values.compose(flat.get(i + 1)));
        return out;
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof Map))
            throw new InvalidRequestException("Expected a Map for " + cqlName() + ", got " + value.getClass().getSimpleName());
        List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet())
            entries.add(new SimpleImmutableEntry<>(keys.decompose(e.getKey()), values.decompose(e.getValue())));
        return pack(entries);
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>();
        for (Map.Entry<ByteBuffer, ByteBuffer> e : unpack(value))
            entries.add(new SimpleImmutableEntry<>(keys.canonical(e.getKey()), values.canonical(e.getValue())));
        return pack(entries);
    }

    @Override
    public ByteBuffer normalized(ByteBuffer value) {
        List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>();
        for (Map.Entry<ByteBuffer, ByteBuffer> e : unpack(value))
            entries.add(new SimpleImmutableEntry<>(keys.normalized(e.getKey()), values.normalized(e.getValue())));
        return pack(entries);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null)
            return "null";
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<ByteBuffer, ByteBuffer> e : unpack(value))
            sb.append(sb.length() > 1 ? ", " : "").append(keys.toCqlLiteral(e.getKey())).append(": ")
                    .append(values.toCqlLiteral(e.getValue()));
        return sb.append('}').toString();
    }

    @Override
    public String toJson(ByteBuffer value) {
        if (value == null)
            return "null";
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<ByteBuffer, ByteBuffer> e : unpack(value)) {
            String key = keys.toJson(e.getKey());
            sb.append(sb.length() > 1 ? ", " : "").append(key.startsWith("\"") ? key : Json.quote(key)).append(": ")
                    .append(values.toJson(e.getValue()));
        }
        return sb.append('}').toString();
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (!(parsed instanceof Map))
            throw new InvalidRequestException("Expected a map, but got a " + Json.describe(parsed));
        List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) parsed).entrySet()) {
            if (e.getKey() == null)
                throw new InvalidRequestException("Invalid null key in map");
            if (e.getValue() == null)
                throw new InvalidRequestException("Invalid null value in map");
            entries.add(new SimpleImmutableEntry<>(keys.fromJson(e.getKey()), values.fromJson(e.getValue())));
        }
        return pack(entries);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MapType))
            return false;
        MapType that = (MapType) o;
        return that.frozen == frozen && that.keys.equals(keys) && that.values.equals(values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Kind.MAP, keys, values, frozen);
    }
}

package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What Cassandra's {@code CompositeType} and {@code DynamicCompositeType} share. A value is a sequence of components,
 * each {@code <comparator part><2-byte length><value><end-of-component byte>}; the comparator part is empty for
 * {@code CompositeType} (the i-th component has the i-th declared type) and names the component's type for
 * {@code DynamicCompositeType}. Only the last component may have a non-zero end-of-component byte. Two values compare
 * component by component (type, then value, then end-of-component byte, signed); a value that is a prefix of another
 * sorts first, and the empty value sorts before everything. The text form joins components with {@code :}, escaping
 * {@code :} as {@code \:}.
 */
abstract class AbstractCompositeType extends CustomType {
    /** One component: its type, its comparator part as written (possibly empty), its value and end-of-component byte. */
    record Component(CqlType type, ByteBuffer comparatorPart, ByteBuffer value, byte endOfComponent) {}

    AbstractCompositeType(String className) {
        super(className);
    }

    /**
     * Reads the comparator part of component {@code index} at {@code in}'s position, advancing past it, and returns
     * the component's type.
     */
    abstract CqlType readComparator(int index, ByteBuffer in);

    /** How the string form names the type of a component before its value: "" or e.g. {@code "s@"}. */
    abstract String comparatorText(Component component);

    /** Splits a string-form part into the comparator part to write (possibly empty), its type and the value text. */
    abstract ParsedPart parsePart(int index, String part);

    record ParsedPart(ByteBuffer comparatorPart, CqlType type, String valueText) {}

    /** The order of two different component types; 0 if they are the same type. */
    abstract int compareTypes(CqlType left, CqlType right);

    final List<Component> components(ByteBuffer value) {
        List<Component> components = new ArrayList<>();
        ByteBuffer in = value.duplicate();
        for (int i = 0; in.hasRemaining(); i++) {
            int start = in.position();
            CqlType type = readComparator(i, in);
            ByteBuffer comparatorPart = in.duplicate().position(start).limit(in.position()).slice();
            if (in.remaining() < 2)
                throw invalid("Not enough bytes to read value size of component " + i);
            int length = in.getShort() & 0xFFFF;
            if (in.remaining() < length)
                throw invalid("Not enough bytes to read value of component " + i);
            ByteBuffer component = in.slice().limit(length);
            in.position(in.position() + length);
            type.validate(component);
            if (!in.hasRemaining())
                throw invalid("Not enough bytes to read the end-of-component byte of component" + i);
            byte endOfComponent = in.get();
            if (endOfComponent != 0 && in.hasRemaining())
                throw invalid("Invalid bytes remaining after an end-of-component at component" + i);
            components.add(new Component(type, comparatorPart, component, endOfComponent));
        }
        return components;
    }

    static InvalidRequestException invalid(String message) {
        return new InvalidRequestException(message);
    }

    @Override
    public final void validate(ByteBuffer value) {
        components(value);
    }

    @Override
    public final int compare(ByteBuffer left, ByteBuffer right) {
        List<Component> l = components(left);
        List<Component> r = components(right);
        for (int i = 0; i < Math.min(l.size(), r.size()); i++) {
            Component a = l.get(i);
            Component b = r.get(i);
            int c = compareTypes(a.type(), b.type());
            if (c == 0)
                c = a.type().compare(a.value(), b.value());
            if (c == 0)
                c = Byte.compare(a.endOfComponent(), b.endOfComponent());
            if (c != 0)
                return c;
        }
        return Integer.compare(l.size(), r.size());
    }

    @Override
    public final ByteBuffer canonical(ByteBuffer value) {
        List<Component> components = new ArrayList<>();
        for (Component c : components(value))
            components.add(new Component(c.type(), c.comparatorPart(), c.type().canonical(c.value()), c.endOfComponent()));
        return serialize(components);
    }

    static ByteBuffer serialize(List<Component> components) {
        int size = 0;
        for (Component c : components)
            size += c.comparatorPart().remaining() + 2 + c.value().remaining() + 1;
        ByteBuffer out = ByteBuffer.allocate(size);
        for (Component c : components) {
            out.put(c.comparatorPart().duplicate());
            out.putShort((short) c.value().remaining());
            out.put(c.value().duplicate());
            out.put(c.endOfComponent());
        }
        return out.flip();
    }

    @Override
    public final String asString(ByteBuffer value) {
        StringBuilder sb = new StringBuilder();
        for (Component c : components(value)) {
            if (sb.length() > 0)
                sb.append(':');
            sb.append(comparatorText(c)).append(escape(c.type().asString(c.value())));
            if (c.endOfComponent() != 0) {
                sb.append(c.endOfComponent() < 0 ? ":_" : ":!");
                break;
            }
        }
        return sb.toString();
    }

    /**
     * Reads the string form: parts split on unescaped {@code :}; a last part {@code !} or {@code _} sets the
     * end-of-component byte of the component before it to 1 or -1.
     */
    @Override
    public final ByteBuffer fromString(String text) {
        List<Component> components = new ArrayList<>();
        byte last = 0;
        List<String> parts = TupleLikeType.splitOnColons(text);
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            if (part.equals("!") || part.equals("_")) {
                last = (byte) (part.equals("!") ? 1 : -1);
                break;
            }
            ParsedPart parsed = parsePart(i, part);
            if (parsed.valueText() == null)
                throw invalid("Invalid component representation: " + part);
            ByteBuffer component = parsed.type().fromString(unescape(parsed.valueText()));
            components.add(new Component(parsed.type(), parsed.comparatorPart(), component, (byte) 0));
        }
        if (last != 0 && !components.isEmpty()) {
            Component end = components.remove(components.size() - 1);
            components.add(new Component(end.type(), end.comparatorPart(), end.value(), last));
        }
        ByteBuffer value = serialize(components);
        validate(value);
        return value;
    }

    private static String escape(String text) {
        if (text.isEmpty())
            return text;
        String escaped = text.replace(":", "\\:");
        char last = escaped.charAt(escaped.length() - 1);
        return last == '\\' || last == '!' ? escaped + '!' : escaped;
    }

    private static String unescape(String text) {
        if (text.isEmpty())
            return text;
        String unescaped = text.replace("\\:", ":");
        return unescaped.endsWith("!") ? unescaped.substring(0, unescaped.length() - 1) : unescaped;
    }
}

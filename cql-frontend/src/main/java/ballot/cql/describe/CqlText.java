package ballot.cql.describe;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds create statements in the layout Cassandra's DESCRIBE prints (its {@code CqlBuilder}): text following a line
 * break is indented by four spaces per level, so a line left empty carries no indentation; maps are written with
 * their keys sorted.
 */
final class CqlText {
    private static final String INDENT = "    ";

    private final StringBuilder text = new StringBuilder(256);
    private int depth;
    private boolean atLineStart;

    CqlText append(String s) {
        if (atLineStart) {
            text.append(INDENT.repeat(depth));
            atLineStart = false;
        }
        text.append(s);
        return this;
    }

    CqlText append(Object o) {
        return append(String.valueOf(o));
    }

    /** A name, quoted if CQL needs it quoted. */
    CqlText appendName(String name) {
        return append(Identifiers.maybeQuote(name));
    }

    /** A string literal: single quotes, inner quotes doubled. */
    CqlText appendLiteral(String s) {
        return append(literal(s));
    }

    /** {@code {'k': 'v', ...}} in key order; values are written as literals, or as they are if {@code !quoteValues}. */
    CqlText appendMap(Map<String, String> map, boolean quoteValues) {
        StringBuilder sb = new StringBuilder("{");
        Iterator<Map.Entry<String, String>> entries = new TreeMap<>(map).entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<String, String> e = entries.next();
            sb.append(literal(e.getKey())).append(": ").append(quoteValues ? literal(e.getValue()) : e.getValue());
            if (entries.hasNext()) sb.append(", ");
        }
        return append(sb.append('}').toString());
    }

    CqlText newLine() {
        text.append('\n');
        atLineStart = true;
        return this;
    }

    CqlText indent() {
        depth++;
        return this;
    }

    CqlText outdent() {
        if (depth == 0) throw new IllegalStateException("outdent below column 0 in: " + text);
        depth--;
        return this;
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    @Override
    public String toString() {
        return text.toString();
    }
}

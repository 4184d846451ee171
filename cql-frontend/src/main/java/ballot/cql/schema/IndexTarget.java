package ballot.cql.schema;

import ballot.cql.type.CqlIdentifiers;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an index indexes: a column and which part of it (Cassandra's {@code IndexTarget}). Stored as the {@code target}
 * option: the column name (quoted if CQL needs it), wrapped in {@code values(..)}, {@code keys(..)}, {@code
 * entries(..)} or {@code full(..)} for collection parts.
 */
public record IndexTarget(String column, Type type) {
    private static final Pattern WRAPPED = Pattern.compile("^(values|keys|entries|full)\\((.+)\\)$");

    /** The part of the column; the names are Cassandra's target spellings ({@code ""} for a simple column). */
    public enum Type {
        SIMPLE(""), VALUES("values"), KEYS("keys"), ENTRIES("entries"), FULL("full");

        private final String spelling;

        Type(String spelling) {
            this.spelling = spelling;
        }

        /** As error messages and the target option spell it. */
        @Override
        public String toString() {
            return spelling;
        }
    }

    /** The {@code target} option's text. */
    public String asCql() {
        String name = CqlIdentifiers.maybeQuote(column);
        return type == Type.SIMPLE ? name : type + "(" + name + ")";
    }

    /** Parses a stored {@code target} option. */
    public static IndexTarget parse(String target) {
        Matcher m = WRAPPED.matcher(target);
        if (m.matches()) return new IndexTarget(unquote(m.group(2)), Type.valueOf(typeName(m.group(1))));
        return new IndexTarget(unquote(target), Type.SIMPLE);
    }

    private static String typeName(String spelling) {
        return spelling.equals("entries") ? "ENTRIES" : spelling.toUpperCase(Locale.ROOT);
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name;
    }
}

package ballot.cql.parse;

import ballot.cql.error.SyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits CQL text into tokens as Cassandra's Lexer.g does, except that a minus sign is always its own token (the
 * parser folds it into constants). Comments ({@code --} and {@code //} to the end of the line, {@code /* *}{@code /})
 * and whitespace (space, tab, CR, LF) are skipped.
 */
final class Lexer {
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final String TIME_DESIGNATORS = "T(\\d+H(\\d+M)?(\\d+S)?|\\d+M(\\d+S)?|\\d+S)";
    /**
     * Cassandra's duration literals: units ({@code 1h30m}, {@code 2y3mo}, case-insensitive) and ISO 8601 forms, whose
     * designators are upper case as in Cassandra's lexer: {@code P1Y2M3DT4H5M6S}, {@code PT5M}, {@code P2W} and the
     * alternative {@code P0001-02-03T04:05:06}.
     */
    private static final Pattern DURATION = Pattern.compile(
            "(?i:(\\d+(y|mo|w|d|h|s|ms|us|µs|ns|m))+)"
                    + "|P(\\d+Y(\\d+M)?(\\d+D)?|\\d+M(\\d+D)?|\\d+D)(" + TIME_DESIGNATORS + ")?"
                    + "|P" + TIME_DESIGNATORS
                    + "|P\\d+W"
                    + "|P\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}");
    /** Cassandra's FLOAT: digits, an optional fraction (possibly empty, {@code 1.}), an optional exponent. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d*)?([eE][+-]?\\d+)?");

    private final String text;
    private int pos;
    private int line = 1;
    private int lineStart;

    private Lexer(String text) {
        this.text = text;
    }

    static List<Token> tokenize(String text) {
        return new Lexer(text).all();
    }

    private List<Token> all() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipSpaceAndComments();
            if (pos >= text.length()) {
                tokens.add(token(Token.Kind.EOF, "", pos));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int start = pos;
        char c = text.charAt(pos);
        if (c == '\'') return string(start);
        if (c == '$' && text.startsWith("$$", pos)) return dollarString(start);
        if (c == '"') return quotedName(start);
        if (c == '?') {
            pos++;
            return token(Token.Kind.QMARK, "?", start);
        }
        if (c == '0' && pos + 1 < text.length() && (text.charAt(pos + 1) == 'x' || text.charAt(pos + 1) == 'X')) {
            pos += 2;
            while (pos < text.length() && Character.digit(text.charAt(pos), 16) >= 0) pos++;
            return token(Token.Kind.HEX, text.substring(start, pos), start);
        }
        Matcher uuid = UUID.matcher(text).region(pos, text.length());
        if (uuid.lookingAt() && !continuesWord(uuid.end())) {
            pos = uuid.end();
            return token(Token.Kind.UUID, uuid.group(), start);
        }
        if (isDigit(c)) {
            Matcher duration = DURATION.matcher(text).region(pos, text.length());
            Matcher number = NUMBER.matcher(text).region(pos, text.length());
            boolean isNumber = number.lookingAt();
            if (duration.lookingAt() && (!isNumber || duration.end() > number.end()) && !continuesWord(duration.end())) {
                pos = duration.end();
                return token(Token.Kind.DURATION, text.substring(start, pos), start);
            }
            if (isNumber) {
                String literal = number.group();
                // 1..3 is a collection slice: the integer, then the range
                if (literal.endsWith(".") && text.startsWith(".", number.end())) literal = literal.substring(0, literal.length() - 1);
                pos = start + literal.length();
                boolean isFloat = literal.indexOf('.') >= 0 || literal.indexOf('e') >= 0 || literal.indexOf('E') >= 0;
                return token(isFloat ? Token.Kind.FLOAT : Token.Kind.INTEGER, literal, start);
            }
        }
        if (c == 'P') {
            Matcher duration = DURATION.matcher(text).region(pos, text.length());
            if (duration.lookingAt() && duration.end() > pos + 1 && !continuesWord(duration.end())) {
                pos = duration.end();
                return token(Token.Kind.DURATION, text.substring(start, pos), start);
            }
        }
        if (isIdentifierStart(c)) {
            while (pos < text.length() && isIdentifierPart(text.charAt(pos))) pos++;
            return token(Token.Kind.IDENTIFIER, text.substring(start, pos), start);
        }
        for (String symbol : new String[] {"!=", "<=", ">=", "+=", "-=", "..", "=", "<", ">", "(", ")", "[", "]", "{", "}", ",", ";", ".", "*", ":", "+", "-", "/", "%"}) {
            if (text.startsWith(symbol, pos)) {
                pos += symbol.length();
                return token(Token.Kind.SYMBOL, symbol, start);
            }
        }
        throw new SyntaxException(String.format("line %d:%d no viable alternative at character '%s'", line, start - lineStart, c));
    }

    private boolean continuesWord(int end) {
        return end < text.length() && isIdentifierPart(text.charAt(end));
    }

    private Token string(int start) {
        int startLine = line;
        int startColumn = start - lineStart;
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw new SyntaxException(String.format("line %d:%d unterminated string literal", startLine, startColumn));
            }
            char c = text.charAt(pos);
            if (c == '\'') {
                if (pos + 1 < text.length() && text.charAt(pos + 1) == '\'') {
                    sb.append('\'');
                    pos += 2;
                    continue;
                }
                pos++;
                return new Token(Token.Kind.STRING, sb.toString(), startLine, startColumn, start);
            }
            if (c == '\n') newLine(pos);
            sb.append(c);
            pos++;
        }
    }

    private Token dollarString(int start) {
        int end = text.indexOf("$$", pos + 2);
        if (end < 0) {
            throw new SyntaxException(String.format("line %d:%d unterminated $$ string literal", line, start - lineStart));
        }
        Token t = token(Token.Kind.STRING, text.substring(pos + 2, end), start);
        for (int i = pos; i < end; i++) if (text.charAt(i) == '\n') newLine(i);
        pos = end + 2;
        return t;
    }

    private Token quotedName(int start) {
        StringBuilder sb = new StringBuilder();
        int startColumn = start - lineStart;
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw new SyntaxException(String.format("line %d:%d unterminated quoted identifier", line, startColumn));
            }
            char c = text.charAt(pos);
            if (c == '"') {
                if (pos + 1 < text.length() && text.charAt(pos + 1) == '"') {
                    sb.append('"');
                    pos += 2;
                    continue;
                }
                pos++;
                if (sb.length() == 0) {
                    throw new SyntaxException(String.format("line %d:%d empty quoted identifier", line, startColumn));
                }
                return new Token(Token.Kind.QUOTED_NAME, sb.toString(), line, startColumn, start);
            }
            sb.append(c);
            pos++;
        }
    }

    private void skipSpaceAndComments() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                newLine(pos);
                pos++;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (text.startsWith("--", pos) || text.startsWith("//", pos)) {
                while (pos < text.length() && text.charAt(pos) != '\n' && text.charAt(pos) != '\r') pos++;
                // Cassandra's lexer ends a line comment with its newline only: a statement that ends inside one is invalid
                if (pos == text.length()) {
                    throw new SyntaxException(String.format("line %d:%d mismatched character '<EOF>' expecting set null",
                            line, pos - lineStart));
                }
            } else if (text.startsWith("/*", pos)) {
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) throw new SyntaxException(String.format("line %d:%d unterminated comment", line, pos - lineStart));
                for (int i = pos; i < end; i++) if (text.charAt(i) == '\n') newLine(i);
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private void newLine(int at) {
        line++;
        lineStart = at + 1;
    }

    private Token token(Token.Kind kind, String value, int start) {
        return new Token(kind, value, line, start - lineStart, start);
    }

    /** Cassandra's IDENT is {@code [A-Za-z][A-Za-z0-9_]*}: ASCII only, and not starting with an underscore. */
    private static boolean isIdentifierStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c) || c == '_';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

package ballot.cql.parse;

/** One lexical token of a CQL statement, with its 1-based line and 0-based column for error messages. */
record Token(Kind kind, String text, int line, int column, int offset) {
    enum Kind {
        IDENTIFIER,        // unquoted word, text as written (keywords are identifiers checked by the parser)
        QUOTED_NAME,       // "Quoted" identifier, text unescaped, case preserved
        STRING,            // 'string' or $$string$$, text unescaped
        INTEGER,
        FLOAT,
        HEX,               // 0x... blob constant, text includes the 0x
        UUID,
        DURATION,
        QMARK,             // ?
        SYMBOL,            // punctuation and operators
        EOF
    }

    boolean is(Kind k) {
        return kind == k;
    }

    boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    boolean isWord(String word) {
        return kind == Kind.IDENTIFIER && text.equalsIgnoreCase(word);
    }

    String describe() {
        return switch (kind) {
            case EOF -> "end of input";
            case STRING -> "'" + text + "'";
            case QUOTED_NAME -> "\"" + text + "\"";
            default -> "'" + text + "'";
        };
    }
}

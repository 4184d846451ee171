package ballot.cql.parse;

/** Comparison operators of WHERE relations and IF conditions. */
public enum Operator {
    EQ("="), NEQ("!="), LT("<"), LTE("<="), GT(">"), GTE(">="), IN("IN"),
    CONTAINS("CONTAINS"), CONTAINS_KEY("CONTAINS KEY"), LIKE("LIKE"), IS_NOT("IS NOT");

    private final String symbol;

    Operator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    public boolean isSlice() {
        return this == LT || this == LTE || this == GT || this == GTE;
    }

    /** The operator with its operands swapped: {@code a < b} is {@code b > a}. */
    public Operator reverse() {
        return switch (this) {
            case LT -> GT;
            case LTE -> GTE;
            case GT -> LT;
            case GTE -> LTE;
            default -> this;
        };
    }
}

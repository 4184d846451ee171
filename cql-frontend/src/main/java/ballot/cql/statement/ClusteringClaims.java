package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Operator;
import ballot.cql.parse.Relation;
import ballot.cql.parse.Term;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The clustering columns each WHERE relation restricts, single- and multi-column relations alike, merged as Cassandra
 * merges restrictions on common columns, in the order written: an EQ or IN leaves no room for another relation on its
 * columns, and two slices merge only if they start on the same column and bound different sides
 * ({@code (c1, c2) > (1, 2) AND c1 < 5}). Which message a conflict gets depends on the relation that came first.
 */
final class ClusteringClaims {
    enum Kind { EQ, IN, SLICE }

    /** The relations restricting clustering columns {@code first..last}: one EQ or IN, or slices merged. */
    static final class Claim {
        private final List<Relation> relations = new ArrayList<>();
        private final Kind kind;
        /** The place of the claim's first relation in the WHERE clause. */
        private final int order;
        private final int first;
        private int last;
        private boolean lower;
        private boolean upper;

        private Claim(Relation relation, Kind kind, int order, int first, int last) {
            this.relations.add(relation);
            this.kind = kind;
            this.order = order;
            this.first = first;
            this.last = last;
            this.lower = kind == Kind.SLICE && isLower(relation);
            this.upper = kind == Kind.SLICE && !isLower(relation);
        }

        List<Relation> relations() {
            return relations;
        }

        int first() {
            return first;
        }

        int last() {
            return last;
        }

        boolean isSlice() {
            return kind == Kind.SLICE;
        }

        boolean writtenBefore(Claim other) {
            return order < other.order;
        }
    }

    private final TableMetadata table;
    /** The claim on each clustering column, or null. */
    private final Claim[] claims;
    private boolean multiColumn;

    private ClusteringClaims(TableMetadata table) {
        this.table = table;
        this.claims = new Claim[table.clustering().size()];
    }

    /** Claims of {@code relations} (restrictions of clustering columns, in the order written); refuses conflicts. */
    static ClusteringClaims of(TableMetadata table, List<Relation> relations) {
        ClusteringClaims c = new ClusteringClaims(table);
        for (int i = 0; i < relations.size(); i++) c.add(relations.get(i), i);
        return c;
    }

    boolean hasMultiColumn() {
        return multiColumn;
    }

    /** The claim on the clustering column at {@code position}, or null (also for a position before the first). */
    Claim at(int position) {
        return position < 0 ? null : claims[position];
    }

    /** The claims starting at {@code position} or later, in clustering order. */
    List<Claim> from(int position) {
        Set<Claim> out = new LinkedHashSet<>();
        for (int i = position; i < claims.length; i++) if (claims[i] != null && claims[i].first >= position) out.add(claims[i]);
        return new ArrayList<>(out);
    }

    private void add(Relation r, int order) {
        Claim claim = claim(r, order);
        Claim existing = null;
        for (int i = claim.first; i <= claim.last && existing == null; i++) existing = claims[i];
        if (existing != null) claim = merge(existing, claim);
        for (int i = claim.first; i <= claim.last; i++) claims[i] = claim;
    }

    private Claim claim(Relation r, int order) {
        if (r instanceof Relation.Single s) {
            int position = Restrictions.column(table, s.column()).position();
            return new Claim(r, kind(s.op(), s.value()), order, position, position);
        }
        Relation.Multi m = (Relation.Multi) r;
        multiColumn = true;
        int first = Restrictions.column(table, m.columns().get(0)).position();
        for (int i = 1; i < m.columns().size(); i++) {
            if (Restrictions.column(table, m.columns().get(i)).position() != first + i) {
                throw new InvalidRequestException("Clustering columns must appear in the PRIMARY KEY order in multi-column relations: "
                        + "(" + String.join(", ", m.columns()) + ")");
            }
        }
        return new Claim(r, kind(m.op(), m.value()), order, first, first + m.columns().size() - 1);
    }

    /** An IN of a single value is an EQ, as in Cassandra. */
    private static Kind kind(Operator op, Term value) {
        if (op == Operator.EQ) return Kind.EQ;
        if (op == Operator.IN) return Restrictions.isSingleValueIn(op, value) ? Kind.EQ : Kind.IN;
        return Kind.SLICE;
    }

    private static boolean isLower(Relation r) {
        Operator op = r instanceof Relation.Single s ? s.op() : ((Relation.Multi) r).op();
        return op == Operator.GT || op == Operator.GTE;
    }

    /** {@code added} merged into {@code existing}, which restricts some of the same columns; or Cassandra's refusal. */
    private Claim merge(Claim existing, Claim added) {
        String common = commonColumns(existing, added);
        switch (existing.kind) {
            case EQ -> throw new InvalidRequestException(common + " cannot be restricted by more than one relation if it includes an Equal");
            case IN -> throw new InvalidRequestException(common + " cannot be restricted by more than one relation if it includes a IN");
            case SLICE -> {
                if (added.kind != Kind.SLICE) {
                    throw new InvalidRequestException("Column \"" + common + "\" cannot be restricted by both an equality and an inequality relation");
                }
                if (existing.first != added.first) {
                    ColumnMetadata later = table.clustering().get(Math.max(existing.first, added.first));
                    throw new InvalidRequestException("Column \"" + later.name() + "\" cannot be restricted by two inequalities not starting with the same column");
                }
                if (existing.lower && added.lower) throw new InvalidRequestException("More than one restriction was found for the start bound on " + common);
                if (existing.upper && added.upper) throw new InvalidRequestException("More than one restriction was found for the end bound on " + common);
                existing.relations.addAll(added.relations);
                existing.last = Math.max(existing.last, added.last);
                existing.lower |= added.lower;
                existing.upper |= added.upper;
                return existing;
            }
        }
        throw new AssertionError(existing.kind);
    }

    /** The names of the columns both claims restrict, as Cassandra lists them (joined by " ,"). */
    private String commonColumns(Claim a, Claim b) {
        List<String> names = new ArrayList<>();
        for (int i = Math.max(a.first, b.first); i <= Math.min(a.last, b.last); i++) names.add(table.clustering().get(i).name());
        return String.join(" ,", names);
    }
}

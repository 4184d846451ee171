package ballot.cql.statement;

import ballot.cql.parse.Assignment;
import ballot.cql.parse.Statement;
import ballot.cql.parse.Term;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Replaces the LET references in the values a transaction's update writes ({@code SET v = a.v + 1}, {@code VALUES
 * (a.v)}) with the terms a function gives for them, in text order, so that the update prepares as any other.
 */
final class LetReferences {
    private LetReferences() {}

    static Statement.Modification substitute(Statement.Modification m, Function<Term.LetReference, Term> replacement) {
        if (m instanceof Statement.Insert i) {
            return new Statement.Insert(i.table(), i.columns(), substitute(i.values(), replacement), i.ifNotExists(), i.attributes());
        }
        if (m instanceof Statement.Update u) {
            List<Assignment> assignments = new ArrayList<>(u.assignments().size());
            for (Assignment a : u.assignments()) assignments.add(substitute(a, replacement));
            return new Statement.Update(u.table(), u.attributes(), List.copyOf(assignments), u.where(), u.ifExists(), u.conditions());
        }
        return m; // the parser makes no reference elsewhere
    }

    private static Assignment substitute(Assignment a, Function<Term.LetReference, Term> r) {
        if (a instanceof Assignment.SetValue s) return new Assignment.SetValue(s.column(), substitute(s.value(), r));
        if (a instanceof Assignment.SetElement s) {
            Term key = substitute(s.key(), r);
            return new Assignment.SetElement(s.column(), key, substitute(s.value(), r));
        }
        if (a instanceof Assignment.SetField s) return new Assignment.SetField(s.column(), s.field(), substitute(s.value(), r));
        if (a instanceof Assignment.Add s) return new Assignment.Add(s.column(), substitute(s.value(), r));
        if (a instanceof Assignment.Prepend s) return new Assignment.Prepend(s.column(), substitute(s.value(), r));
        if (a instanceof Assignment.Subtract s) return new Assignment.Subtract(s.column(), substitute(s.value(), r));
        throw new IllegalArgumentException("unknown assignment " + a);
    }

    private static List<Term> substitute(List<Term> terms, Function<Term.LetReference, Term> r) {
        List<Term> out = new ArrayList<>(terms.size());
        for (Term t : terms) out.add(substitute(t, r));
        return List.copyOf(out);
    }

    private static Term substitute(Term t, Function<Term.LetReference, Term> r) {
        if (t instanceof Term.LetReference ref) return r.apply(ref);
        if (t instanceof Term.Arithmetic a) {
            Term left = substitute(a.left(), r);
            return new Term.Arithmetic(a.op(), left, substitute(a.right(), r));
        }
        if (t instanceof Term.Negation n) return new Term.Negation(substitute(n.term(), r));
        if (t instanceof Term.TypeHint h) return new Term.TypeHint(h.type(), substitute(h.term(), r));
        if (t instanceof Term.FunctionCall f) return new Term.FunctionCall(f.keyspace(), f.name(), substitute(f.args(), r));
        if (t instanceof Term.ListLiteral l) return new Term.ListLiteral(substitute(l.elements(), r));
        if (t instanceof Term.SetLiteral l) return new Term.SetLiteral(substitute(l.elements(), r));
        if (t instanceof Term.TupleLiteral l) return new Term.TupleLiteral(substitute(l.elements(), r));
        if (t instanceof Term.MapLiteral l) {
            List<Term> keys = substitute(l.keys(), r);
            return new Term.MapLiteral(keys, substitute(l.values(), r));
        }
        if (t instanceof Term.UdtLiteral l) return new Term.UdtLiteral(l.fields(), substitute(l.values(), r));
        return t;
    }
}

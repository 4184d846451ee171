package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.index.VectorSimilarity;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.VectorType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cassandra 5.0's vector similarity functions {@code similarity_cosine}, {@code similarity_euclidean} and
 * {@code similarity_dot_product}, of two {@code vector<float, n>} of one dimension, returning a float: the score SAI
 * orders ANN queries by ({@link VectorSimilarity}). A list literal argument is a float vector of its length; a bind marker
 * or null takes the other argument's type.
 */
final class VectorFunctions {
    private static final String PARAMETERS = "(vector<float, n>, vector<float, n>)";

    private VectorFunctions() {}

    static Map<String, Functions.Factory> factories() {
        Map<String, Functions.Factory> out = new LinkedHashMap<>();
        for (VectorSimilarity s : VectorSimilarity.values()) out.put(s.functionName(), (name, args) -> function(s, name, args));
        return out;
    }

    private static Functions.Function function(VectorSimilarity similarity, String name, List<Argument> args) {
        String signature = name + PARAMETERS;
        if (args.size() != 2) throw new InvalidRequestException("Invalid number of arguments for function " + signature);
        List<CqlType> types = new ArrayList<>();
        for (Argument arg : args) types.add(ownType(name, arg));
        CqlType known = types.get(0) != null ? types.get(0) : types.get(1);
        if (known == null) {
            throw new InvalidRequestException("Cannot infer type of argument " + args.get(0).text() + " in call to function " + signature
                    + ": use type casts to disambiguate");
        }
        for (CqlType t : types) {
            if (t != null && ((VectorType) t).dimension() != ((VectorType) known).dimension()) {
                throw new InvalidRequestException("All arguments must have the same vector dimensions");
            }
        }
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).fit(known) == Fit.NONE) {
                throw new InvalidRequestException("Type error: " + args.get(i).text() + " cannot be passed as argument " + i
                        + " of function " + name + " of type " + known.cqlName());
            }
        }
        return new Functions.Function(similarity.functionName(), List.of(known, known), CqlTypes.FLOAT,
                a -> CqlTypes.FLOAT.decompose(similarity.score(VectorSimilarity.floats(a.get(0)), VectorSimilarity.floats(a.get(1)))), Functions.Arguments.VALUES);
    }

    /** An argument's type as a float vector: a list literal's of its length, null for a marker or null. */
    private static CqlType ownType(String name, Argument arg) {
        CqlType type = arg.listLiteralSize() >= 0 ? CqlTypes.vector(CqlTypes.FLOAT, arg.listLiteralSize()) : arg.type();
        if (type != null && !(type instanceof VectorType v && v.elements().kind() == CqlType.Kind.FLOAT)) {
            throw new InvalidRequestException("Function " + name + " requires a float vector argument, but found argument " + arg.text()
                    + " of type " + type.cqlName());
        }
        return type;
    }
}

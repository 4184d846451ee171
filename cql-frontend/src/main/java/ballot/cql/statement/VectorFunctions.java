package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.VectorType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cassandra 5.0's vector similarity functions {@code similarity_cosine}, {@code similarity_euclidean} and
 * {@code similarity_dot_product}, of two {@code vector<float, n>} of one dimension, returning a float: the score SAI
 * orders ANN queries by ({@link Similarity}). A list literal argument is a float vector of its length; a bind marker
 * or null takes the other argument's type.
 */
final class VectorFunctions {
    private static final String PARAMETERS = "(vector<float, n>, vector<float, n>)";

    private VectorFunctions() {}

    /**
     * A similarity of two float vectors, as jvector's VectorSimilarityFunction computes it in float: cosine
     * (1 + cos) / 2, refusing an all-zero vector; euclidean 1 / (1 + d²); dot product (1 + a·b) / 2.
     */
    enum Similarity {
        COSINE, EUCLIDEAN, DOT_PRODUCT;

        /** The similarity of an index's {@code similarity_function} option (any case); null if it names none. */
        static Similarity of(String option) {
            for (Similarity s : values()) if (s.name().equalsIgnoreCase(option)) return s;
            return null;
        }

        String functionName() {
            return "similarity_" + name().toLowerCase(Locale.ROOT);
        }

        float score(float[] a, float[] b) {
            return switch (this) {
                case COSINE -> {
                    float dot = 0, normA = 0, normB = 0;
                    for (int i = 0; i < a.length; i++) {
                        dot += a[i] * b[i];
                        normA += a[i] * a[i];
                        normB += b[i] * b[i];
                    }
                    if (normA == 0 || normB == 0) {
                        throw new InvalidRequestException("Function system." + functionName() + " doesn't support all-zero vectors.");
                    }
                    float cosine = (float) (dot / Math.sqrt((double) normA * (double) normB));
                    yield (1 + cosine) / 2;
                }
                case EUCLIDEAN -> {
                    float squared = 0;
                    for (int i = 0; i < a.length; i++) {
                        float d = a[i] - b[i];
                        squared += d * d;
                    }
                    yield 1 / (1 + squared);
                }
                case DOT_PRODUCT -> {
                    float dot = 0;
                    for (int i = 0; i < a.length; i++) dot += a[i] * b[i];
                    yield (1 + dot) / 2;
                }
            };
        }
    }

    static Map<String, Functions.Factory> factories() {
        Map<String, Functions.Factory> out = new LinkedHashMap<>();
        for (Similarity s : Similarity.values()) out.put(s.functionName(), (name, args) -> function(s, name, args));
        return out;
    }

    /** The elements of a serialized {@code vector<float, n>}. */
    static float[] floats(ByteBuffer vector) {
        float[] out = new float[vector.remaining() / 4];
        for (int i = 0; i < out.length; i++) out[i] = vector.getFloat(vector.position() + 4 * i);
        return out;
    }

    private static Functions.Function function(Similarity similarity, String name, List<Functions.Arg> args) {
        String signature = name + PARAMETERS;
        if (args.size() != 2) throw new InvalidRequestException("Invalid number of arguments for function " + signature);
        List<CqlType> types = new ArrayList<>();
        for (Functions.Arg arg : args) types.add(ownType(name, arg));
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
            if (args.get(i).fit(known) == Functions.Fit.NONE) {
                throw new InvalidRequestException("Type error: " + args.get(i).text() + " cannot be passed as argument " + i
                        + " of function " + name + " of type " + known.cqlName());
            }
        }
        return new Functions.Function(similarity.functionName(), List.of(known, known), CqlTypes.FLOAT,
                a -> CqlTypes.FLOAT.decompose(similarity.score(floats(a.get(0)), floats(a.get(1)))), Functions.Arguments.VALUES);
    }

    /** An argument's type as a float vector: a list literal's of its length, null for a marker or null. */
    private static CqlType ownType(String name, Functions.Arg arg) {
        CqlType type = arg.listLiteralSize() >= 0 ? CqlTypes.vector(CqlTypes.FLOAT, arg.listLiteralSize()) : arg.exactType();
        if (type != null && !(type instanceof VectorType v && v.elements().kind() == CqlType.Kind.FLOAT)) {
            throw new InvalidRequestException("Function " + name + " requires a float vector argument, but found argument " + arg.text()
                    + " of type " + type.cqlName());
        }
        return type;
    }
}

package ballot.cql.index;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.schema.IndexMetadata;
import java.util.Locale;
import java.util.Map;

/**
 * The similarity of two float vectors an ANN index orders by (its {@code similarity_function} option, COSINE by
 * default) and the {@code similarity_*} functions compute, in float as jvector's VectorSimilarityFunction does: cosine
 * (1 + cos) / 2, refusing an all-zero vector; euclidean 1 / (1 + d²); dot product (1 + a·b) / 2. Higher is more similar.
 */
public enum VectorSimilarity {
    EUCLIDEAN, DOT_PRODUCT, COSINE;

    public static final String OPTION = "similarity_function";
    /** SAI's other vector option, accepted and kept: which the graph favours. */
    public static final String OPTIMIZE_FOR = "optimize_for";

    /** The similarity an ANN index orders by. */
    public static VectorSimilarity of(IndexMetadata index) {
        String option = index.options().get(OPTION);
        return option == null ? COSINE : valueOf(option.toUpperCase(Locale.ROOT));
    }

    /** Checks the vector options of a new index, with SAI's messages (which name no index). */
    static void validate(Map<String, String> options) {
        String similarity = options.get(OPTION);
        if (similarity != null && !isOneOf(similarity, values())) {
            throw new InvalidRequestException("Similarity function " + similarity.toUpperCase(Locale.ROOT)
                    + " was not recognized for index null. Valid values are: EUCLIDEAN, DOT_PRODUCT, COSINE");
        }
        String optimizeFor = options.get(OPTIMIZE_FOR);
        if (optimizeFor != null && !optimizeFor.equalsIgnoreCase("latency") && !optimizeFor.equalsIgnoreCase("recall")) {
            throw new InvalidRequestException(OPTIMIZE_FOR + " '" + optimizeFor.toUpperCase(Locale.ROOT)
                    + "' was not recognized for index null. Valid values are: LATENCY, RECALL");
        }
    }

    private static boolean isOneOf(String name, VectorSimilarity[] values) {
        for (VectorSimilarity s : values) if (s.name().equalsIgnoreCase(name)) return true;
        return false;
    }

    /** The name of the function that computes this similarity. */
    public String functionName() {
        return "similarity_" + name().toLowerCase(Locale.ROOT);
    }

    /** The similarity of two vectors of one dimension. */
    public float score(float[] a, float[] b) {
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

    /** The elements of a serialized {@code vector<float, n>}. */
    public static float[] floats(java.nio.ByteBuffer vector) {
        float[] out = new float[vector.remaining() / 4];
        for (int i = 0; i < out.length; i++) out[i] = vector.getFloat(vector.position() + 4 * i);
        return out;
    }
}

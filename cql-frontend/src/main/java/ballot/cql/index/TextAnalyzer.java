package ballot.cql.index;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;

/**
 * SAI's non-tokenizing analyzer for text and ascii terms: {@code case_sensitive = false} lower-cases,
 * {@code normalize = true} applies Unicode NFC, {@code ascii = true} folds accented and compatibility characters to
 * their ASCII base (decomposition, then combining marks dropped). The same transformation applies to indexed values
 * and to the values a query compares them with, so matching is on analyzed terms.
 */
public record TextAnalyzer(boolean caseSensitive, boolean normalize, boolean ascii) {
    public static final String CASE_SENSITIVE = "case_sensitive";
    public static final String NORMALIZE = "normalize";
    public static final String ASCII = "ascii";
    public static final TextAnalyzer NONE = new TextAnalyzer(true, false, false);

    /** The analyzer of validated options (absent options keep SAI's defaults). */
    static TextAnalyzer of(Map<String, String> options) {
        return new TextAnalyzer(bool(options, CASE_SENSITIVE, true), bool(options, NORMALIZE, false), bool(options, ASCII, false));
    }

    private static boolean bool(Map<String, String> options, String name, boolean otherwise) {
        String value = options.get(name);
        return value == null ? otherwise : Boolean.parseBoolean(value);
    }

    /** Whether the analyzer changes anything (SAI's {@code hasNonDefaultOptions}). */
    public boolean transforms() {
        return !caseSensitive || normalize || ascii;
    }

    String analyze(String value) {
        String out = value;
        if (normalize) out = Normalizer.normalize(out, Normalizer.Form.NFC);
        if (!caseSensitive) out = out.toLowerCase(Locale.ROOT);
        if (ascii) out = Normalizer.normalize(out, Normalizer.Form.NFKD).replaceAll("\\p{M}+", "");
        return out;
    }

    /** As system_views.sai_column_indexes shows it. */
    @Override
    public String toString() {
        if (!transforms()) return "NoOpAnalyzer";
        return "NonTokenizingAnalyzer{caseSensitive=" + caseSensitive + ", normalized=" + normalize + ", ascii=" + ascii + "}";
    }
}

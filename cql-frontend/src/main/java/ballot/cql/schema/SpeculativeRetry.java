package ballot.cql.schema;

import ballot.cql.error.ConfigurationException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of {@code speculative_retry} and {@code additional_write_policy}, read and stored as Cassandra's
 * SpeculativeRetryPolicy does: {@code NONE} or {@code NEVER}, {@code ALWAYS}, a percentile ({@code 99p}, {@code
 * 99PERCENTILE}; above 0 and below 100), a time ({@code 10ms}, whole milliseconds) or {@code MIN}/{@code MAX} of a
 * percentile and a time, in any case; stored as {@code NEVER}, {@code ALWAYS}, {@code 99.5p}, {@code 10ms} and {@code
 * MAX(90p,10ms)}.
 */
final class SpeculativeRetry {
    private static final Pattern HYBRID = Pattern.compile("^(MIN|MAX)\\((.+),(.+)\\)$");

    private SpeculativeRetry() {}

    static String normalize(String option, String value) {
        String upper = value.toUpperCase(Locale.ROOT);
        if (upper.equals("NONE") || upper.equals("NEVER")) return "NEVER";
        if (upper.equals("ALWAYS")) return "ALWAYS";
        Matcher hybrid = HYBRID.matcher(upper);
        if (hybrid.matches()) {
            String first = hybrid.group(2).trim();
            String second = hybrid.group(3).trim();
            boolean firstIsPercentile = isPercentile(first);
            if (firstIsPercentile == isPercentile(second)) throw invalid(option, value);
            String percentile = percentile(option, value, firstIsPercentile ? first : second);
            String fixed = fixed(option, value, firstIsPercentile ? second : first);
            return hybrid.group(1) + "(" + percentile + "," + fixed + ")";
        }
        return isPercentile(upper) ? percentile(option, value, upper) : fixed(option, value, upper);
    }

    private static boolean isPercentile(String upper) {
        return upper.endsWith("P") || upper.endsWith("PERCENTILE");
    }

    private static String percentile(String option, String value, String upper) {
        String number = upper.substring(0, upper.length() - (upper.endsWith("PERCENTILE") ? "PERCENTILE".length() : 1));
        double percentile = number(option, value, number);
        if (percentile <= 0 || percentile >= 100) {
            throw new ConfigurationException("Invalid value " + value + " for PERCENTILE option '" + option + "': must be between (0.0 and 100.0)");
        }
        return BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString() + "p";
    }

    private static String fixed(String option, String value, String upper) {
        if (!upper.endsWith("MS")) throw invalid(option, value);
        return (long) number(option, value, upper.substring(0, upper.length() - 2)) + "ms";
    }

    private static double number(String option, String value, String number) {
        try {
            return Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw invalid(option, value);
        }
    }

    private static ConfigurationException invalid(String option, String value) {
        return new ConfigurationException("Invalid value " + value + " for option '" + option + "'");
    }
}

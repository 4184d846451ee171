package ballot.tools.workload;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A duration as {@code 250ms}, {@code 1.5s}, {@code 10m}, {@code 2h}, or ISO-8601 ({@code PT30S}). */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern AMOUNT_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        Matcher m = AMOUNT_UNIT.matcher(value.trim());
        if (m.matches()) {
            double millisPerUnit = switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            return Duration.ofNanos(Math.round(Double.parseDouble(m.group(1)) * millisPerUnit * 1_000_000));
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("'" + value + "' is not a duration such as 500ms, 10s, 5m, 1h or PT30S");
        }
    }
}

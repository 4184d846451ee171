package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;

/**
 * Latency percentiles side by side, one column per histogram, as nodetool's tablehistograms and proxyhistograms lay
 * them out. Each histogram is the node's {@code LatencyPercentiles} in JSON: p50..p99 and max, in microseconds.
 */
final class PercentileTable {
    private static final List<String> ROWS = List.of("50%", "75%", "95%", "98%", "99%", "Max");
    private static final List<String> FIELDS = List.of("p50_micros", "p75_micros", "p95_micros", "p98_micros", "p99_micros", "max_micros");
    private static final String COLUMN = "%19s";

    private PercentileTable() {}

    static void print(PrintWriter out, List<String> titles, List<JsonNode> histograms) {
        out.printf("%-10s", "Percentile");
        for (String title : titles) out.printf(COLUMN, title);
        out.println();
        out.printf("%-10s", "");
        for (int i = 0; i < titles.size(); i++) out.printf(COLUMN, "(micros)");
        out.println();
        for (int row = 0; row < ROWS.size(); row++) {
            out.printf("%-10s", ROWS.get(row));
            for (JsonNode h : histograms) out.printf(COLUMN, String.format("%.2f", h.get(FIELDS.get(row)).asDouble()));
            out.println();
        }
        out.printf("%-10s", "Count");
        for (JsonNode h : histograms) out.printf(COLUMN, h.get("count").asText());
        out.println();
        out.println();
    }
}

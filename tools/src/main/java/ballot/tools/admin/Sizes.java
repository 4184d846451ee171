package ballot.tools.admin;

/** Byte counts as people read them, in binary units like nodetool's. */
final class Sizes {
    private static final String[] UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB"};

    private Sizes() {}

    static String human(long bytes) {
        if (bytes < 1024) return bytes + " bytes";
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format("%.2f %s", value, UNITS[unit]);
    }
}

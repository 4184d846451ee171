package ballot.admission;

/**
 * Bytes of writes that may start, from the storage's health ({@link #health}, reported by the shell from any thread).
 * While the storage is healthy writes are not limited. Once it is {@linkplain StorageHealth#overloaded() overloaded},
 * the first adjustment limits writes to 80% of the bytes admitted over the last second, and each second it stays
 * overloaded cuts the rate to 80% again (never under the floor, so writes always move); each second it is healthy
 * raises it by a quarter, and once writers ask for under half of it the limit is lifted. Tokens accrue each tick, at
 * most a tenth of a second's worth; a write needs only a positive balance, and may leave it in debt, which later
 * tokens pay off (so a write larger than the burst is never stuck).
 */
public final class TokenGranter implements Granter {
    static final long UNLIMITED = Long.MAX_VALUE;
    private static final long SECOND = 1_000_000_000L;

    private final long floorBytesPerSecond;
    private volatile StorageHealth health = StorageHealth.HEALTHY;
    private long rate = UNLIMITED;
    private long available;
    private long spentSinceAdjust;
    private long refilledNanos;
    private long adjustedNanos;

    /** @param floorBytesPerSecond the rate is never limited below this */
    public TokenGranter(long floorBytesPerSecond, long nowNanos) {
        if (floorBytesPerSecond <= 0) throw new IllegalArgumentException("the write rate floor must be positive, was " + floorBytesPerSecond);
        this.floorBytesPerSecond = floorBytesPerSecond;
        this.refilledNanos = nowNanos;
        this.adjustedNanos = nowNanos;
    }

    /** The shell's report of the storage's health, taken at the next adjustment. */
    public void health(StorageHealth health) {
        this.health = health;
    }

    @Override
    public boolean hasRoom() {
        return rate == UNLIMITED || available > 0;
    }

    @Override
    public void take(WorkInfo work) {
        spentSinceAdjust += work.writeBytes();
        if (rate != UNLIMITED) available -= work.writeBytes();
    }

    @Override
    public void giveBack() {}

    @Override
    public void adjust(long nowNanos) {
        if (rate != UNLIMITED) available = Math.min(burst(), available + (long) ((double) rate * (nowNanos - refilledNanos) / SECOND));
        refilledNanos = nowNanos;
        long elapsed = nowNanos - adjustedNanos;
        if (elapsed < SECOND) return;
        long asked = (long) ((double) spentSinceAdjust * SECOND / elapsed);
        spentSinceAdjust = 0;
        adjustedNanos = nowNanos;
        if (health.overloaded()) {
            boolean limiting = rate == UNLIMITED;
            rate = Math.max(floorBytesPerSecond, (limiting ? asked : rate) / 5 * 4);
            if (limiting) available = 0;
        } else if (rate != UNLIMITED) {
            if (2 * asked < rate) rate = UNLIMITED;
            else rate = rate / 4 * 5;
        }
        available = Math.min(available, burst());
    }

    private long burst() {
        return Math.max(1, rate / 10);
    }

    /** Bytes per second writes may start at now, or -1 when they are not limited. */
    public long rateBytesPerSecond() {
        return rate == UNLIMITED ? -1 : rate;
    }

    @Override
    public String describe() {
        return rate == UNLIMITED ? "writes unlimited" : "writes " + rate + " bytes/s, " + available + " available";
    }
}

package ballot.admission;

/**
 * The knobs of a {@link GrantCoordinator}, named as the node's YAML names them (docs/admission.md).
 *
 * @param queueMax at most this many works wait ({@code admission_queue_max})
 * @param slotsInitial slots to begin with (the node's request threads)
 * @param slotsMin never fewer slots
 * @param slotsMax never more slots
 * @param executorDelayTargetNanos above this wait for a thread, slots shrink ({@code admission_executor_delay_target_in_ms})
 * @param lifoThresholdNanos above this queue delay a priority turns epoch-LIFO ({@code admission_lifo_threshold_in_ms})
 * @param epochNanos the width of an epoch ({@code admission_epoch_in_ms})
 */
public record AdmissionSettings(int queueMax, int slotsInitial, int slotsMin, int slotsMax, long executorDelayTargetNanos,
        long lifoThresholdNanos, long epochNanos) {
    public AdmissionSettings {
        if (queueMax < 1) throw new IllegalArgumentException("admission_queue_max must be at least 1, was " + queueMax);
        if (slotsMin < 1) throw new IllegalArgumentException("admission slots must be at least 1, was " + slotsMin);
        if (slotsMax < slotsMin)
            throw new IllegalArgumentException("admission slots: the most (" + slotsMax + ") is below the fewest (" + slotsMin + ")");
        if (slotsInitial < slotsMin || slotsInitial > slotsMax)
            throw new IllegalArgumentException("admission slots: " + slotsInitial + " to begin with is outside " + slotsMin + ".." + slotsMax);
        if (executorDelayTargetNanos <= 0)
            throw new IllegalArgumentException("admission_executor_delay_target_in_ms must be positive");
        if (lifoThresholdNanos <= 0) throw new IllegalArgumentException("admission_lifo_threshold_in_ms must be positive");
        if (epochNanos <= 0) throw new IllegalArgumentException("admission_epoch_in_ms must be positive");
    }

    private static final long MILLIS = 1_000_000L;

    /** The defaults for a node with {@code requestThreads} request threads. */
    public static AdmissionSettings defaults(int requestThreads) {
        return new AdmissionSettings(10_000, requestThreads, 1, 8 * requestThreads, 2 * MILLIS, 105 * MILLIS, 100 * MILLIS);
    }
}

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

    /**
     * The settings of a node with {@code requestThreads} request threads: slots (requests admitted and not yet
     * answered) begin at 32 per thread and move between 8 per thread and 4,096 (docs/admission.md, "Slots").
     */
    public static AdmissionSettings forRequestThreads(int requestThreads, int queueMax, long executorDelayTargetNanos,
            long lifoThresholdNanos, long epochNanos) {
        return new AdmissionSettings(queueMax, 32 * requestThreads, 8 * requestThreads, Math.max(4096, 32 * requestThreads),
                executorDelayTargetNanos, lifoThresholdNanos, epochNanos);
    }
}

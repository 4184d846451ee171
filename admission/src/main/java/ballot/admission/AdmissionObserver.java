package ballot.admission;

/** Hears of every decision, outside the coordinator's lock (metrics). */
public interface AdmissionObserver {
    void admitted(Priority priority, long waitedNanos);

    void refused(Priority priority, Refusal why);

    AdmissionObserver NONE = new AdmissionObserver() {
        @Override
        public void admitted(Priority priority, long waitedNanos) {}

        @Override
        public void refused(Priority priority, Refusal why) {}
    };
}

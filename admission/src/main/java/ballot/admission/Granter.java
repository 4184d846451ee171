package ballot.admission;

/**
 * What a {@link GrantCoordinator} hands out to the work at the head of its queue: slots (work in flight, for the CPU)
 * or tokens (bytes written, for the storage). Its signal comes in from any thread; the rest is called under the
 * coordinator's lock only.
 */
public sealed interface Granter permits SlotGranter, TokenGranter {
    /** Whether the next work may start now. */
    boolean hasRoom();

    /** {@code work} starts. */
    void take(WorkInfo work);

    /** Work that took a grant has ended, or paused: a slot comes back; tokens are spent for good. */
    void giveBack();

    /** Each tick: follow the signal. */
    void adjust(long nowNanos);

    /** What it allows and what is taken, for tests and logs: "slots=3 used=2". */
    String describe();
}

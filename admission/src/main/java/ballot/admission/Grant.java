package ballot.admission;

/**
 * A slot held by admitted work. Releasing it twice is harmless; not releasing it leaks the slot for good.
 *
 * <p>Work that stops using the CPU to wait on something other than a slot (a request queued behind others on its
 * partition) pauses its grant: the slot goes to the next waiting work, and the grant stays open. {@link #resume} takes
 * a slot back at once, even past the slot count, because the work was admitted already: so the count may be
 * overshot by the works that resume together. Pausing a paused or released grant, or resuming a held one, does nothing.
 */
public interface Grant {
    void release();

    void pause();

    void resume();
}

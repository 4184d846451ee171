package ballot.admission;

/** A slot held by admitted work. Releasing it twice is harmless; not releasing it leaks the slot for good. */
public interface Grant {
    void release();
}

package ballot.cql;

/** The kind of write that timed out or failed, as named in WRITE_TIMEOUT / WRITE_FAILURE payloads. */
public enum WriteType {
    SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, BATCH_LOG, CAS, VIEW, CDC
}

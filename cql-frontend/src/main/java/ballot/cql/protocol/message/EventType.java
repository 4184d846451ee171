package ballot.cql.protocol.message;

/** Event types a connection can REGISTER for (native_protocol_v5.spec §4.2.6). */
public enum EventType {
    TOPOLOGY_CHANGE,
    STATUS_CHANGE,
    SCHEMA_CHANGE
}

package ballot.cql.protocol.message;

/** A schema change pushed to registered clients. */
public record SchemaChangeEvent(SchemaChange change) implements Event {
    @Override
    public EventType type() {
        return EventType.SCHEMA_CHANGE;
    }
}

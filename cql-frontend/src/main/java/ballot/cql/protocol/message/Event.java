package ballot.cql.protocol.message;

/** A message the server pushes, on stream -1, to connections that REGISTERed for its type. */
public sealed interface Event extends Response permits TopologyChange, StatusChange, SchemaChangeEvent {
    EventType type();
}

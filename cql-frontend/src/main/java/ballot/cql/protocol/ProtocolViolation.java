package ballot.cql.protocol;

/**
 * A decoder's verdict that the byte stream broke the protocol. The decoder that produced it has stopped and drops
 * every later byte; the connection answers with a PROTOCOL_ERROR on {@code streamId} and closes.
 *
 * @param streamId the offending envelope's stream, or 0 when it could not be read (Cassandra answers on 0 too)
 * @param obsoleteVersion 1 or 2 when the client spoke that obsolete version and must be answered in it, else 0
 */
public record ProtocolViolation(int streamId, String message, int obsoleteVersion) {
    public static ProtocolViolation onStream(int streamId, String message) {
        return new ProtocolViolation(streamId, message, 0);
    }
}

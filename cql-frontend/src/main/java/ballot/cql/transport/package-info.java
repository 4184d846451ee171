/**
 * The native-protocol server. {@link ballot.cql.transport.CqlServer} accepts connections; each runs through inbound
 * framing, outbound framing and a {@code Connection} state machine (handshake, authentication, REGISTER, dispatch).
 * The rest of the node plugs in a {@link ballot.cql.transport.RequestHandler} for statements and publishes events
 * through {@link ballot.cql.transport.EventBroadcaster}.
 */
package ballot.cql.transport;

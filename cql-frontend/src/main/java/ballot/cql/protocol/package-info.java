/**
 * The CQL native protocol, versions 3 to 5, as pure codecs over Netty {@link io.netty.buffer.ByteBuf}s: no IO, no
 * channel state. {@link ballot.cql.protocol.EnvelopeDecoder} and {@link ballot.cql.protocol.SegmentedEnvelopeDecoder}
 * turn bytes into {@link ballot.cql.protocol.Envelope}s (or one final {@link ballot.cql.protocol.ProtocolViolation});
 * {@code message} holds the request and response records and their codecs.
 *
 * <h2>Version negotiation (Cassandra 4/5 behaviour, which drivers depend on)</h2>
 * <ul>
 *   <li>The version is judged from the first byte alone. An unsupported one is answered with PROTOCOL_ERROR
 *       "Invalid or unsupported protocol version (N); supported versions are (3/v3, 4/v4, 5/v5)" on stream 0 (the
 *       header of an unknown version cannot be trusted), in the connection's version or, before STARTUP, in v5
 *       (CASSANDRA-16581); v1 and v2 are answered in their own 8-byte header. The connection is then closed.</li>
 *   <li>The Java driver 4.x opens with DSE_V2 (0x42), then DSE_V1 (0x41), then v5; it downgrades only when the first
 *       request fails with PROTOCOL_ERROR or SERVER_ERROR containing "Invalid or unsupported protocol version" (or
 *       "Beta version of the protocol used"). The Python driver does the same (66, 65, 5) on the substring
 *       "unsupported protocol version". gocql v2 starts at v5, and otherwise reads the answer's header version.</li>
 *   <li>No version here is beta, so the USE_BETA flag is ignored, as Cassandra ignores it for non-beta versions;
 *       v6 (beta in Cassandra 5) is simply unsupported.</li>
 * </ul>
 *
 * <h2>v5 framing</h2>
 * OPTIONS before STARTUP, STARTUP, and their answers travel as bare envelopes, in the version of the request. Right
 * after the server writes READY or AUTHENTICATE for a v5 STARTUP, both directions switch to segments (the Java
 * driver switches on receiving exactly those two answers; Cassandra also switches after an ERROR, which no client
 * expects, so Ballot does not). Segment integers are little-endian; the header CRC24 starts at 0x875060 with
 * polynomial 0x1974F0B over the header bytes in wire order; the payload CRC32 is seeded with the bytes
 * FA 2D 55 CA, which the spec omits. Payloads are at most 128 KiB - 1; with LZ4 an uncompressed length of 0 means
 * "sent as is". See {@link ballot.cql.protocol.SegmentCodec}.
 */
package ballot.cql.protocol;

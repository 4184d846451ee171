package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The payload of one v5 segment, uncompressed and checksum-verified. A self-contained payload holds one or more
 * whole envelopes; otherwise it holds one part of a single envelope too large for one segment. The holder owns
 * one reference to {@code payload}.
 */
public record Segment(ByteBuf payload, boolean selfContained) {}

package ballot.cql.protocol.message;

import ballot.cql.type.CqlType;
import io.netty.buffer.ByteBuf;

/** Reads a type written as an [option] back into a {@link CqlType}; needed only to decode results (clients, tests). */
@FunctionalInterface
public interface TypeOptionDecoder {
    CqlType read(ByteBuf in);
}

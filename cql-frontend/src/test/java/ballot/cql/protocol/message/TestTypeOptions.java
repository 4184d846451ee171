package ballot.cql.protocol.message;

import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import io.netty.buffer.ByteBuf;

/** Reads back the few [option]s the codec tests use. */
final class TestTypeOptions {
    private TestTypeOptions() {}

    static final TypeOptionDecoder DECODER = TestTypeOptions::read;

    static CqlType read(ByteBuf in) {
        int id = in.readUnsignedShort();
        switch (id) {
            case 0x0009: return CqlTypes.INT;
            case 0x000C: return CqlTypes.UUID;
            case 0x000D: return CqlTypes.TEXT;
            case 0x0010: return CqlTypes.INET;
            case 0x0022: return CqlTypes.set(read(in), false);
            default: throw new IllegalArgumentException("test decoder does not know option 0x" + Integer.toHexString(id));
        }
    }
}

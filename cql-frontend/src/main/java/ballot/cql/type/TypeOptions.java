package ballot.cql.type;

import ballot.cql.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a type written as an {@code [option]}, the inverse of {@link CqlType#writeTypeOption}. An option does not say
 * whether a collection or UDT is frozen: the outermost one reads as non-frozen, nested ones as frozen, which is the
 * only legal reading of nested ones and serializes values identically either way.
 */
final class TypeOptions {
    private TypeOptions() {}

    static CqlType read(ByteBuf in) {
        return read(in, false);
    }

    private static CqlType read(ByteBuf in, boolean nested) {
        int id = in.readUnsignedShort();
        switch (id) {
            case 0x0000: {
                String className = readString(in);
                try {
                    return MarshalNameParser.parse(className);
                } catch (RuntimeException e) {
                    throw new ProtocolException("Unsupported custom type " + className);
                }
            }
            case 0x0001: return CqlTypes.ASCII;
            case 0x0002: return CqlTypes.BIGINT;
            case 0x0003: return CqlTypes.BLOB;
            case 0x0004: return CqlTypes.BOOLEAN;
            case 0x0005: return CqlTypes.COUNTER;
            case 0x0006: return CqlTypes.DECIMAL;
            case 0x0007: return CqlTypes.DOUBLE;
            case 0x0008: return CqlTypes.FLOAT;
            case 0x0009: return CqlTypes.INT;
            case 0x000A:
            case 0x000D: return CqlTypes.TEXT;
            case 0x000B: return CqlTypes.TIMESTAMP;
            case 0x000C: return CqlTypes.UUID;
            case 0x000E: return CqlTypes.VARINT;
            case 0x000F: return CqlTypes.TIMEUUID;
            case 0x0010: return CqlTypes.INET;
            case 0x0011: return CqlTypes.DATE;
            case 0x0012: return CqlTypes.TIME;
            case 0x0013: return CqlTypes.SMALLINT;
            case 0x0014: return CqlTypes.TINYINT;
            case 0x0015: return CqlTypes.DURATION;
            case 0x0020: return CqlTypes.list(read(in, true), nested);
            case 0x0021: {
                CqlType keys = read(in, true);
                return CqlTypes.map(keys, read(in, true), nested);
            }
            case 0x0022: return CqlTypes.set(read(in, true), nested);
            case 0x0030: {
                String keyspace = readString(in);
                String name = readString(in);
                int count = in.readUnsignedShort();
                List<String> names = new ArrayList<>(count);
                List<CqlType> types = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    names.add(readString(in));
                    types.add(read(in, true));
                }
                return CqlTypes.userType(keyspace, name, names, types, nested);
            }
            case 0x0031: {
                int count = in.readUnsignedShort();
                List<CqlType> types = new ArrayList<>(count);
                for (int i = 0; i < count; i++)
                    types.add(read(in, true));
                return CqlTypes.tuple(types);
            }
            default:
                throw new ProtocolException("Unknown type option id 0x" + Integer.toHexString(id));
        }
    }

    private static String readString(ByteBuf in) {
        int length = in.readUnsignedShort();
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }
}

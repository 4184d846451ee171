package ballot.cql;

import ballot.cql.error.ProtocolException;

/** Consistency levels with their native-protocol codes. Lives here because error payloads carry them. */
public enum ConsistencyLevel {
    ANY(0x0000),
    ONE(0x0001),
    TWO(0x0002),
    THREE(0x0003),
    QUORUM(0x0004),
    ALL(0x0005),
    LOCAL_QUORUM(0x0006),
    EACH_QUORUM(0x0007),
    SERIAL(0x0008),
    LOCAL_SERIAL(0x0009),
    LOCAL_ONE(0x000A);

    private static final ConsistencyLevel[] BY_CODE = new ConsistencyLevel[11];

    static {
        for (ConsistencyLevel cl : values()) BY_CODE[cl.code] = cl;
    }

    private final int code;

    ConsistencyLevel(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean isSerial() {
        return this == SERIAL || this == LOCAL_SERIAL;
    }

    /** @throws ProtocolException for a code the protocol does not define */
    public static ConsistencyLevel fromCode(int code) {
        if (code < 0 || code >= BY_CODE.length) throw new ProtocolException("Unknown consistency level code 0x" + Integer.toHexString(code));
        return BY_CODE[code];
    }
}

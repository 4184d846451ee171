package ballot.cql.protocol;

/** Envelope opcodes (native_protocol_v5.spec §2.4.1.4) and which side may send each. */
public enum Opcode {
    ERROR(0x00, false),
    STARTUP(0x01, true),
    READY(0x02, false),
    AUTHENTICATE(0x03, false),
    OPTIONS(0x05, true),
    SUPPORTED(0x06, false),
    QUERY(0x07, true),
    RESULT(0x08, false),
    PREPARE(0x09, true),
    EXECUTE(0x0A, true),
    REGISTER(0x0B, true),
    EVENT(0x0C, false),
    BATCH(0x0D, true),
    AUTH_CHALLENGE(0x0E, false),
    AUTH_RESPONSE(0x0F, true),
    AUTH_SUCCESS(0x10, false);

    private static final Opcode[] BY_CODE = new Opcode[0x11];

    static {
        for (Opcode op : values()) BY_CODE[op.code] = op;
    }

    private final int code;
    private final boolean request;

    Opcode(int code, boolean request) {
        this.code = code;
        this.request = request;
    }

    public int code() {
        return code;
    }

    /** True when clients send it, false when only the server does. */
    public boolean isRequest() {
        return request;
    }

    /** @return the opcode, or null for a code the protocol does not define */
    public static Opcode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}

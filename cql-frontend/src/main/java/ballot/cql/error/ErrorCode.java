package ballot.cql.error;

/** Error codes of the native protocol (native_protocol_v4.spec §9, v5 adds CAS_WRITE_UNKNOWN). */
public enum ErrorCode {
    SERVER_ERROR(0x0000),
    PROTOCOL_ERROR(0x000A),
    AUTHENTICATION_ERROR(0x0100),
    UNAVAILABLE(0x1000),
    OVERLOADED(0x1001),
    IS_BOOTSTRAPPING(0x1002),
    TRUNCATE_ERROR(0x1003),
    WRITE_TIMEOUT(0x1100),
    READ_TIMEOUT(0x1200),
    READ_FAILURE(0x1300),
    FUNCTION_FAILURE(0x1400),
    WRITE_FAILURE(0x1500),
    CDC_WRITE_FAILURE(0x1600),
    CAS_WRITE_UNKNOWN(0x1700),
    SYNTAX_ERROR(0x2000),
    UNAUTHORIZED(0x2100),
    INVALID(0x2200),
    CONFIG_ERROR(0x2300),
    ALREADY_EXISTS(0x2400),
    UNPREPARED(0x2500);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}

package ballot.cql.protocol.message;

import java.util.List;

/** A message the server sends (native_protocol_v5.spec §4.2). */
public sealed interface Response
        permits Ready, Authenticate, AuthChallenge, AuthSuccess, Supported, ErrorResponse, Result, Event, WithWarnings {

    /** This response carrying warnings for the client (envelope flag 0x08; dropped for v3 clients). */
    default Response withWarnings(List<String> warnings) {
        return warnings.isEmpty() ? this : new WithWarnings(this, warnings);
    }
}

package ballot.cql.protocol.message;

/** A message a client sends (native_protocol_v5.spec §4.1). */
public sealed interface Request permits Startup, Options, Query, Prepare, Execute, Batch, Register, AuthResponse {}

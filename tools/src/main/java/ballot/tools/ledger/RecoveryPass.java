package ballot.tools.ledger;

/**
 * One pass of {@link Ledger#recoverAbandoned()}: {@code found} unfinished transfers were listed, {@code finished} of
 * them finished by this pass, and {@code left} still there, held by a live client or waiting for an account a live
 * transfer holds. The rest were finished by someone else while the pass ran.
 */
public record RecoveryPass(long found, long finished, long left) {}

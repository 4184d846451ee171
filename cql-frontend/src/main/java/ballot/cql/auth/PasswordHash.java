package ballot.cql.auth;

import org.mindrot.jbcrypt.BCrypt;

/**
 * Salted, slow password hashes: bcrypt, in the {@code $2a$} form Cassandra stores in system_auth.roles.salted_hash,
 * so that roles copied from Cassandra keep their passwords. The cost is Cassandra's default (2^10 rounds, about
 * 50 ms a check): slow enough to make guessing from a stolen table costly, fast enough for a login.
 */
public final class PasswordHash {
    static final int LOG2_ROUNDS = 10;

    private PasswordHash() {}

    public static String of(String password) {
        return BCrypt.hashpw(password, BCrypt.gensalt(LOG2_ROUNDS));
    }

    /** True if {@code password} hashes to {@code saltedHash}; false for a missing or malformed hash, never an exception. */
    public static boolean matches(String password, String saltedHash) {
        if (saltedHash == null) return false;
        try {
            return BCrypt.checkpw(password, saltedHash);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}

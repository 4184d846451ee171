package ballot.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordHashTest {
    @Test
    void matchesOnlyThePasswordItWasMadeFrom() {
        String hash = PasswordHash.of("cassandra");
        assertThat(PasswordHash.matches("cassandra", hash)).isTrue();
        assertThat(PasswordHash.matches("Cassandra", hash)).isFalse();
        assertThat(PasswordHash.matches("", hash)).isFalse();
    }

    @Test
    void isSaltedAndInCassandrasBcryptForm() {
        String first = PasswordHash.of("p");
        assertThat(first).isNotEqualTo(PasswordHash.of("p")).startsWith("$2a$10$").hasSize(60);
    }

    @Test
    void treatsAMissingOrMalformedHashAsNoMatch() {
        assertThat(PasswordHash.matches("p", null)).isFalse();
        assertThat(PasswordHash.matches("p", "not a hash")).isFalse();
    }
}

package ballot.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.AuthenticationException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PlainCredentialsTest {
    private static ByteBuffer token(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void decodesTheTokenDriversSend() {
        assertThat(PlainCredentials.decode(token("\0cassandra\0secret"))).isEqualTo(new PlainCredentials("cassandra", "secret"));
    }

    @Test
    void ignoresTheAuthorizationIdentityAndKeepsUtf8() {
        assertThat(PlainCredentials.decode(token("admin\0jürgen\0pässwörd"))).isEqualTo(new PlainCredentials("jürgen", "pässwörd"));
    }

    @Test
    void refusesTokensWithoutUserOrPasswordAsAuthenticationErrors() {
        assertThatThrownBy(() -> PlainCredentials.decode(token("no-nul-at-all"))).isInstanceOf(AuthenticationException.class)
                .hasMessage("Password must not be null");
        assertThatThrownBy(() -> PlainCredentials.decode(token("user\0password"))).isInstanceOf(AuthenticationException.class)
                .hasMessage("Authentication ID must not be null");
        assertThatThrownBy(() -> PlainCredentials.decode(token("\0\0password"))).hasMessage("Authentication ID must not be null");
        assertThatThrownBy(() -> PlainCredentials.decode(token("\0user\0"))).hasMessage("Password must not be null");
        assertThatThrownBy(() -> PlainCredentials.decode(null)).isInstanceOf(AuthenticationException.class);
    }

    @Test
    void neverShowsThePasswordInToString() {
        assertThat(PlainCredentials.decode(token("\0u\0hunter2")).toString()).doesNotContain("hunter2");
    }
}

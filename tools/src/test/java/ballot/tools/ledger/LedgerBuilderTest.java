package ballot.tools.ledger;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.lang.reflect.Proxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder refuses bad settings before it touches the session, naming the setting and the value. */
class LedgerBuilderTest {
    /** A session that fails the test if the builder uses it. */
    private static final CqlSession UNUSED = (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(), new Class<?>[] {CqlSession.class},
            (proxy, method, args) -> {
                throw new AssertionError("the builder used the session: " + method.getName());
            });

    @Test
    void refusesAConsistencyThatIsNotSerial() {
        assertThatThrownBy(() -> Ledger.builder(UNUSED).serialConsistency(DefaultConsistencyLevel.QUORUM))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("serialConsistency is QUORUM; it must be SERIAL or LOCAL_SERIAL");
    }

    @Test
    void refusesTtlsThatAreNotWholeSecondsInCassandrasRange() {
        assertThatThrownBy(() -> Ledger.builder(UNUSED).claimTtl(Duration.ofMillis(1500))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("claimTtl is PT1.5S; it must be whole seconds");
        assertThatThrownBy(() -> Ledger.builder(UNUSED).claimTtl(Duration.ZERO)).hasMessageStartingWith("claimTtl is PT0S");
        assertThatThrownBy(() -> Ledger.builder(UNUSED).outcomeRetention(Duration.ofDays(365 * 21))).hasMessageStartingWith("outcomeRetention is PT183960H");
        assertThatThrownBy(() -> Ledger.builder(UNUSED).claimTtl(Duration.ofSeconds(60)).outcomeRetention(Duration.ofSeconds(30)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("outcomeRetention is PT30S; it must be at least claimTtl (PT1M)");
    }

    @Test
    void refusesATransferTimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> Ledger.builder(UNUSED).transferTimeout(Duration.ofSeconds(-1))).hasMessage("transferTimeout is PT-1S; it must be positive");
    }
}

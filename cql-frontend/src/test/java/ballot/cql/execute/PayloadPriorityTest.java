package ballot.cql.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadPriorityTest {
    private static Map<String, ByteBuffer> payload(String value) {
        return Map.of(PayloadPriority.KEY, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aClientMayLowerItsRequestToBackground() {
        assertThat(PayloadPriority.background(payload("background"))).isTrue();
        assertThat(PayloadPriority.background(payload(" BACKGROUND "))).isTrue();
    }

    @Test
    void normalOrNoKeyLeavesTheRequestAtNormal() {
        assertThat(PayloadPriority.background(payload("normal"))).isFalse();
        assertThat(PayloadPriority.background(Map.of())).isFalse();
        assertThat(PayloadPriority.background(Map.of("some.other.key", ByteBuffer.allocate(3)))).isFalse();
    }

    @Test
    void anyOtherValueIsInvalidAndNamesTheKey() {
        assertThatThrownBy(() -> PayloadPriority.background(payload("system"))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("ballot.priority is 'system'").hasMessageContaining("'normal' or 'background'");
        assertThatThrownBy(() -> PayloadPriority.background(Map.of(PayloadPriority.KEY, ByteBuffer.wrap(new byte[] {(byte) 0xff}))))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("not UTF-8");
    }
}

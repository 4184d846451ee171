package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PagingStateTest {
    @Test
    void refusesBytesItDidNotWriteWithCassandrasMessage() {
        for (String garbage : new String[] {"garbage", "", "\u0001"}) {
            assertThatThrownBy(() -> PagingState.decode(ByteBuffer.wrap(garbage.getBytes(StandardCharsets.UTF_8))))
                    .as(garbage).isInstanceOf(ProtocolException.class).hasMessage("Invalid value for the paging state");
        }
    }
}

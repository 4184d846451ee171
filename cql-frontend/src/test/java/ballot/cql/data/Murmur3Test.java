package ballot.cql.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.internal.core.metadata.token.Murmur3TokenFactory;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Murmur3Test {
    @Test
    void intKeyOneHasCassandrasDocumentedToken() {
        assertThat(Murmur3.token(ByteBuffer.allocate(4).putInt(0, 1))).isEqualTo(-4069959284402364209L);
    }

    @Test
    void agreesWithTheJavaDriverOnRandomKeysOfEveryTailLength() {
        Murmur3TokenFactory driver = new Murmur3TokenFactory();
        Random random = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            byte[] key = new byte[random.nextInt(70)];
            random.nextBytes(key);
            long expected = ((Murmur3Token) driver.hash(ByteBuffer.wrap(key))).getValue();
            assertThat(Murmur3.token(ByteBuffer.wrap(key))).as("key length %d", key.length).isEqualTo(expected);
        }
    }

    @Test
    void readsFromThePositionWithoutMovingIt() {
        ByteBuffer buffer = ByteBuffer.allocate(12).putInt(0, 99).putInt(4, 0).putInt(8, 1);
        buffer.position(8);
        assertThat(Murmur3.token(buffer)).isEqualTo(-4069959284402364209L);
        assertThat(buffer.position()).isEqualTo(8);
    }
}

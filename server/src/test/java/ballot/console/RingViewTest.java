package ballot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ballot.cluster.NodeInfo;
import ballot.cluster.NodeStatus;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Ownership as primary owner: each token's range reaches back to the previous token, around the ring. */
class RingViewTest {
    private static NodeInfo node(UUID id, Long... tokens) {
        InetAddress address = InetAddress.getLoopbackAddress();
        return new NodeInfo(id, new InetSocketAddress(address, 7000), address, 9042, "dc1", "rack1", List.of(tokens),
                NodeStatus.NORMAL, UUID.randomUUID(), "5.0.0");
    }

    @Test
    void eachTokenOwnsTheRangeBackToThePreviousTokenWrappingAround() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();

        Map<UUID, Double> owned = RingView.ownership(List.of(node(a, 0L), node(b, 1L << 62)));

        assertThat(owned.get(b)).isCloseTo(0.25, within(1e-12)); // (0, 2^62]
        assertThat(owned.get(a)).isCloseTo(0.75, within(1e-12)); // (2^62, 0], across Long.MAX_VALUE
    }

    @Test
    void aSingleTokenOwnsTheWholeRing() {
        UUID a = UUID.randomUUID();

        assertThat(RingView.ownership(List.of(node(a, -5L)))).containsEntry(a, 1.0);
    }

    @Test
    void sharesSumToOne() {
        Map<UUID, Double> owned = RingView.ownership(List.of(node(UUID.randomUUID(), -9L, Long.MIN_VALUE + 1, 77L),
                node(UUID.randomUUID(), Long.MAX_VALUE, 3L)));

        assertThat(owned.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-12));
    }
}

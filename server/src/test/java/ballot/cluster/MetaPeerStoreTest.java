package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Persisted peers in the storage engine's local metadata survive a reopen; an unreadable entry is skipped. */
class MetaPeerStoreTest {
    @TempDir
    Path directory;

    private StorageEngine open() {
        return StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
    }

    @Test
    void peersAndTheDecommissionMarkSurviveAReopen() {
        EndpointState a = GossipRulesTest.complete(new UUID(0, 1), 10, 4).with(AppState.SCHEMA, "s", 9);
        EndpointState b = GossipRulesTest.complete(new UUID(0, 2), 11, 4);
        try (StorageEngine storage = open()) {
            MetaPeerStore store = new MetaPeerStore(storage);
            store.save(a);
            store.save(b);
            store.delete(b.hostId());
            assertThat(store.decommissioned()).isFalse();
            store.markDecommissioned();
            storage.putMeta(MetaPeerStore.PEER_PREFIX + new UUID(0, 3), new byte[] {1, 2, 3}); // corrupt
        }
        try (StorageEngine storage = open()) {
            MetaPeerStore store = new MetaPeerStore(storage);
            assertThat(store.load()).containsExactly(a);
            assertThat(store.decommissioned()).isTrue();
        }
    }
}

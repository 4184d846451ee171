package ballot.cluster;

import ballot.storage.StorageEngine;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PeerStore} in the storage engine's local metadata: {@code gossip/peer/<hostId>} → {@code format(1)=1 · state}
 * and {@code gossip/decommissioned}. Writes are synced. An entry that cannot be read is skipped with a WARN: gossip
 * learns that peer again.
 */
final class MetaPeerStore implements PeerStore {
    private static final Logger log = LoggerFactory.getLogger(MetaPeerStore.class);
    static final String PEER_PREFIX = "gossip/peer/";
    static final String DECOMMISSIONED = "gossip/decommissioned";
    private static final int FORMAT = 1;

    private final StorageEngine storage;

    MetaPeerStore(StorageEngine storage) {
        this.storage = storage;
    }

    @Override
    public List<EndpointState> load() {
        List<EndpointState> peers = new ArrayList<>();
        storage.forEachMeta(PEER_PREFIX, (key, value) -> {
            ByteBuf in = Unpooled.wrappedBuffer(value);
            try {
                int format = in.readUnsignedByte();
                if (format != FORMAT) throw new IllegalArgumentException("format " + format + " is unknown");
                EndpointState state = GossipMessages.STATE.decode(in);
                if (!key.equals(PEER_PREFIX + state.hostId())) throw new IllegalArgumentException("holds host id " + state.hostId());
                peers.add(state);
            } catch (RuntimeException e) {
                log.warn("skipping unreadable persisted peer key={}: {}; gossip will learn it again", key, e.getMessage());
            }
        });
        return peers;
    }

    @Override
    public void save(EndpointState state) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(FORMAT);
        GossipMessages.STATE.encode(state, out);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        storage.putMeta(PEER_PREFIX + state.hostId(), bytes);
    }

    @Override
    public void delete(UUID hostId) {
        storage.deleteMeta(PEER_PREFIX + hostId);
    }

    @Override
    public boolean decommissioned() {
        return storage.getMeta(DECOMMISSIONED) != null;
    }

    @Override
    public void markDecommissioned() {
        storage.putMeta(DECOMMISSIONED, new byte[] {1});
    }
}

package ballot.cluster;

/**
 * The keys of a node's gossiped application state. The number travels on the wire and never changes meaning; a node
 * keeps and relays keys it does not know, so a newer version can add keys (docs/membership.md §2).
 */
enum AppState {
    STATUS(1),
    TOKENS(2),
    SCHEMA(3),
    LOAD(4),
    DC(5),
    RACK(6),
    INTERNODE(7),
    NATIVE(8),
    RELEASE_VERSION(9),
    /** Set by a node that stops cleanly, until its next generation: peers mark it down at once. */
    SHUTDOWN(10),
    /** Set with STATUS=LEFT: wall-clock millis after which every node forgets the node, at the same moment. */
    LEFT_EXPIRES(11);

    final int key;

    AppState(int key) {
        this.key = key;
    }
}

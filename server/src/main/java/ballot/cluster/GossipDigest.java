package ballot.cluster;

import java.util.UUID;

/** What a node knows of another in one line: its generation and the highest version seen (docs/membership.md §2). */
record GossipDigest(UUID hostId, int generation, int maxVersion) {}

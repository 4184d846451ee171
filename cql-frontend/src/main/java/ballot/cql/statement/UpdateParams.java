package ballot.cql.statement;

import ballot.cql.data.Cell;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import java.nio.ByteBuffer;

/**
 * The timestamp, TTL and time of one modification, and how they turn values into cells. {@code listTime} orders the
 * list elements it appends or prepends: the node's clock when the statement runs, not its timestamp, so lists grow in
 * the order statements arrive whatever their USING TIMESTAMP (as in Cassandra, whose element ids are time UUIDs); a
 * compare-and-set's is its decree's timestamp, which follows the Paxos chain.
 */
record UpdateParams(long timestamp, int ttl, int nowInSec, long listTime) {
    /** A cell for {@code value}: a tombstone if it is null, expiring if the statement has a TTL. */
    Cell cell(int column, ByteBuffer path, ByteBuffer value) {
        if (value == null) return Cell.tombstone(column, path, timestamp, nowInSec);
        return ttl > 0 ? Cell.expiring(column, path, value, timestamp, ttl, nowInSec) : Cell.live(column, path, value, timestamp);
    }

    Cell tombstone(int column, ByteBuffer path) {
        return Cell.tombstone(column, path, timestamp, nowInSec);
    }

    DeletionTime deletion() {
        return new DeletionTime(timestamp, nowInSec);
    }

    /** The deletion that clears a multi-cell column just before it is overwritten (at timestamp - 1, as Cassandra). */
    DeletionTime overwriteDeletion() {
        return new DeletionTime(timestamp - 1, nowInSec);
    }

    LivenessInfo liveness() {
        return LivenessInfo.of(timestamp, ttl, nowInSec);
    }
}

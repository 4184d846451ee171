package ballot.cql.data;

import java.util.List;

/**
 * A row, or a fragment of one as a single write describes it: primary-key liveness, row deletion, cells and
 * deletions of whole multi-cell columns. After a merge the cells are in (column, path) order with one version each.
 */
public record Row(Clustering clustering, LivenessInfo liveness, DeletionTime deletion, List<Cell> cells,
        List<ComplexDeletion> complexDeletions) {

    public static Row of(Clustering clustering, LivenessInfo liveness, List<Cell> cells) {
        return new Row(clustering, liveness, DeletionTime.LIVE, cells, List.of());
    }

    public static Row deletion(Clustering clustering, DeletionTime deletion) {
        return new Row(clustering, LivenessInfo.EMPTY, deletion, List.of(), List.of());
    }

    public boolean isStatic() {
        return clustering.isStatic();
    }

    /** A row exists if its primary key is live or any of its cells is (Cassandra's row liveness). */
    public boolean hasLiveData(int nowInSec) {
        if (liveness.isLive(nowInSec)) return true;
        for (Cell cell : cells) if (cell.isLive(nowInSec)) return true;
        return false;
    }

    public boolean isEmpty() {
        return liveness.isEmpty() && deletion.isLive() && cells.isEmpty() && complexDeletions.isEmpty();
    }
}

package ballot.paxos.coordinator;

import ballot.paxos.Electorate;

/**
 * How many replicas must have applied a decided update to their base table before the client hears APPLIED
 * (docs/paxos.md §7). The server maps CQL levels onto these (LOCAL_ONE to ONE, LOCAL_QUORUM to QUORUM in one DC).
 */
public enum CommitLevel {
    /** Answered once decided: durable in a quorum's Paxos registers, applied to base tables later. */
    ANY,
    ONE,
    TWO,
    THREE,
    QUORUM,
    ALL;

    public int acksRequired(Electorate electorate) {
        return switch (this) {
            case ANY -> 0;
            case ONE -> 1;
            case TWO -> 2;
            case THREE -> 3;
            case QUORUM -> electorate.quorum();
            case ALL -> electorate.size();
        };
    }
}

package ballot.txn;

/** The fate of one attempt, read from its record (docs/txn.md §6.1): roll its intents forward, or back. */
public record Decision(Attempt attempt, boolean committed) {}

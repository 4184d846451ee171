package ballot.paxos.message;

/** A message to an acceptor: {@link Prepare}, {@link Propose}, {@link Commit}, {@link Prune}. */
public sealed interface Request extends Message permits Prepare, Propose, Commit, Prune {}

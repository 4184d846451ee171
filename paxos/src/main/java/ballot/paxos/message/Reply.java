package ballot.paxos.message;

/** A message to a coordinator: {@link Promise}, {@link Rejected}, {@link Accepted}, {@link Committed}. */
public sealed interface Reply extends Message permits Promise, Rejected, Accepted, Committed {}

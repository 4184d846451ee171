package ballot.cql.access;

/** One thing a statement needs of the role that runs it: {@code permission} on {@code resource} or one above it. */
public record Access(Permission permission, Resource resource) {}

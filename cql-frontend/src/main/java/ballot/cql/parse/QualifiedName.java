package ballot.cql.parse;

/** {@code [keyspace.]name}; keyspace null means the session's current keyspace. */
public record QualifiedName(String keyspace, String name) {
    @Override
    public String toString() {
        return keyspace == null ? name : keyspace + "." + name;
    }
}

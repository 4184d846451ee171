package ballot.cql.type;

/** Looks up user-defined types by name for {@link CqlTypes#parse}. */
@FunctionalInterface
public interface UserTypeResolver {
    /** Resolves nothing: type strings may then only name built-in types. */
    UserTypeResolver NONE = (keyspace, name) -> null;

    /**
     * The type called {@code name} (already unquoted, case as stored), or {@code null} if there is none.
     *
     * @param keyspace the keyspace written before the name ({@code ks.name}), or {@code null} for the current one
     */
    UserType resolve(String keyspace, String name);

    /** The keyspace unqualified names belong to, if known; only used to word "Unknown type ks.name". */
    default String currentKeyspace() {
        return null;
    }
}

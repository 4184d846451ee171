package ballot.cql.parse;

/** The options of CREATE and ALTER ROLE (or USER); null means not given. */
public record RoleOptions(String password, Boolean login, Boolean superuser) {
    public static final RoleOptions NONE = new RoleOptions(null, null, null);

    public boolean isEmpty() {
        return password == null && login == null && superuser == null;
    }
}

package ballot.cql.error;

import java.util.List;

/**
 * A function failed on the values it was given while a statement ran: FUNCTION_FAILURE, naming the function by
 * keyspace, name and argument types. Arithmetic operators are functions of keyspace {@code system} ({@code _add},
 * {@code _divide}, ...), as in Cassandra.
 */
public final class FunctionFailureException extends CqlException {
    private final String keyspace;
    private final String function;
    private final List<String> argumentTypes;

    public FunctionFailureException(String keyspace, String function, List<String> argumentTypes, String message) {
        super(ErrorCode.FUNCTION_FAILURE, message);
        this.keyspace = keyspace;
        this.function = function;
        this.argumentTypes = List.copyOf(argumentTypes);
    }

    public String keyspace() { return keyspace; }
    public String function() { return function; }
    public List<String> argumentTypes() { return argumentTypes; }
}

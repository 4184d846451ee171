package ballot.cql.spi;

import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Where the schema lives. Changes are applied one at a time, made durable, and then visible to every statement. */
public interface SchemaStore {
    Schema schema();

    /**
     * Applies {@code change} to the current keyspaces under the schema lock, persists the result and returns the new
     * schema. The change may throw (for example AlreadyExists); nothing is changed then. Returning the same map
     * changes nothing.
     */
    Schema update(UnaryOperator<Map<String, KeyspaceMetadata>> change);
}

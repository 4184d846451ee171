package ballot.cql.statement;

import java.nio.ByteBuffer;

/**
 * A term bound to its receiver's type, yielding the serialized value for one execution: null for a null value,
 * {@link ballot.cql.protocol.message.QueryOptions#UNSET} when a marker was left unset.
 */
@FunctionalInterface
interface Value {
    ByteBuffer bind(Bindings bindings);

    static Value constant(ByteBuffer value) {
        return b -> value == null ? null : value.duplicate();
    }
}

package ballot.cql.spi;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;

/**
 * A compare-and-set on one partition (a conditional statement): which rows its condition reads, and what it writes
 * given them. {@link #apply} must be a pure function of its arguments, because a coordinator may evaluate it more than
 * once (on retries) and must get the same answer for the same state.
 */
public interface CasRequest {
    TableMetadata table();

    PartitionKey key();

    /** The rows of the partition the condition reads. */
    ReadSpec read();

    /**
     * The update to make if the condition holds on {@code current}, with every cell at {@code timestampMicros}; null
     * if it does not hold.
     */
    PartitionUpdate apply(PartitionData current, long timestampMicros);

    /** True for a linearizable (SERIAL) read, which never writes: {@link #apply} always returns null. */
    default boolean isRead() {
        return false;
    }

    /** A SERIAL read of {@code spec} on one partition: answered not applied, with the partition as it is. */
    static CasRequest read(TableMetadata table, PartitionKey key, ReadSpec spec) {
        return new CasRequest() {
            @Override
            public TableMetadata table() {
                return table;
            }

            @Override
            public PartitionKey key() {
                return key;
            }

            @Override
            public ReadSpec read() {
                return spec;
            }

            @Override
            public PartitionUpdate apply(PartitionData current, long timestampMicros) {
                return null;
            }

            @Override
            public boolean isRead() {
                return true;
            }
        };
    }
}

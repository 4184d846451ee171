package ballot.cql.protocol.message;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A page of rows. Each row holds one serialized value per column, in column order; a null element is a null value.
 */
public record Rows(RowsMetadata metadata, List<ByteBuffer[]> rows) implements Result {
    public Rows {
        rows = Collections.unmodifiableList(new ArrayList<>(rows));
        for (int i = 0; i < rows.size(); i++)
            if (rows.get(i).length != metadata.columnCount())
                throw new IllegalArgumentException("row " + i + " has " + rows.get(i).length + " values for "
                        + metadata.columnCount() + " columns");
    }

    @Override
    public int kind() {
        return 0x0002;
    }
}

package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.index.VectorSimilarity;
import ballot.cql.parse.Relation;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.VectorType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Cassandra 5.0's ANN ordering, {@code SELECT ... ORDER BY v ANN OF vector LIMIT k}: the k rows most similar to the
 * vector, best first, by the similarity of the ANN index on v ({@link VectorSimilarity}). Ballot scores every row the
 * rest of the query selects, so the answer is exact where SAI's graph search is approximate (and exact on small data);
 * rows of equal score keep their read order, rows without a vector are left out. The whole answer is one page; only
 * the best rows so far are held while reading.
 */
final class AnnOrdering {
    /** SAI's largest LIMIT of a top-k query. */
    static final int MAX_LIMIT = 1000;
    private static final String REQUIRES_INDEXED_FILTERING = "ANN ordering by vector requires all restricted column(s) to be indexed";

    private final ColumnMetadata column;
    private final Value vector;
    private final VectorSimilarity similarity;

    private AnnOrdering(ColumnMetadata column, Value vector, VectorSimilarity similarity) {
        this.column = column;
        this.vector = vector;
        this.similarity = similarity;
    }

    /** Whether {@code select} orders by ANN. */
    static boolean isAnn(Statement.Select select) {
        return select.orderBy().stream().anyMatch(o -> o.annOf() != null);
    }

    /**
     * The ANN ordering of {@code select}, or null if it has none, checked with Cassandra's rules and messages: one ANN
     * ordering alone, ascending, on a float vector with an index; its other restrictions on indexed columns (or a
     * clustering prefix in a partition); no aggregation, DISTINCT or PER PARTITION LIMIT.
     */
    static AnnOrdering of(TableMetadata table, Statement.Select select, Restrictions where, Selection selection, Markers markers,
            UserTypeResolver types) {
        if (!isAnn(select)) return null;
        List<Statement.Ordering> orderings = select.orderBy();
        if (orderings.stream().filter(o -> o.annOf() != null).count() > 1) {
            throw new InvalidRequestException("Cannot specify more than one ANN ordering");
        }
        if (orderings.size() > 1) throw new InvalidRequestException("ANN ordering does not support any other ordering");
        Statement.Ordering ordering = orderings.get(0);
        if (ordering.descending()) throw new InvalidRequestException("Descending ANN ordering is not supported");
        ColumnMetadata column = Restrictions.column(table, ordering.column());
        CqlType type = column.type();
        if (!(type instanceof VectorType) && type.kind() != CqlType.Kind.LIST) {
            throw new InvalidRequestException("Unexpected receiver type '" + type.cqlName() + "'; only list and vector are expected");
        }
        Value vector = Terms.prepare(ordering.annOf(), new ColumnSpec(table.keyspace(), table.name(), column.name(), type), markers, types);
        if (!(type instanceof VectorType v && v.elements().kind() == CqlType.Kind.FLOAT)) {
            throw new InvalidRequestException("ANN ordering is only supported on float vector indexes");
        }
        IndexMetadata index = indexOn(table, column);
        if (index == null) throw new InvalidRequestException("ANN ordering by vector requires the column to be indexed");
        checkRestrictions(table, select, where);
        if (select.distinct()) {
            throw new InvalidRequestException("SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns.");
        }
        if (selection.isAggregate() || !select.groupBy().isEmpty()) {
            throw new InvalidRequestException("Top-K queries can not be run with aggregation");
        }
        if (select.perPartitionLimit() != null) throw new InvalidRequestException("Top-K queries do not support per-partition limits");
        return new AnnOrdering(column, vector, VectorSimilarity.of(index));
    }

    private static IndexMetadata indexOn(TableMetadata table, ColumnMetadata column) {
        for (IndexMetadata index : table.indexes()) if (index.target().column().equals(column.name())) return index;
        return null;
    }

    /**
     * Every restricted column must be indexed, but for clustering columns restricted within one partition without
     * filtering; the partition key must not be filtered.
     */
    private static void checkRestrictions(TableMetadata table, Statement.Select select, Restrictions where) {
        boolean clusteringFiltered = where.clusteringNotPrefixReason() != null;
        for (RowFilter f : where.filters()) {
            if (f.column().kind() == ColumnMetadata.Kind.PARTITION_KEY) throw new InvalidRequestException(REQUIRES_INDEXED_FILTERING);
            clusteringFiltered |= f.column().kind() == ColumnMetadata.Kind.CLUSTERING;
        }
        for (Relation relation : select.where()) {
            List<String> columns = relation instanceof Relation.Single s ? List.of(s.column())
                    : relation instanceof Relation.Multi m ? m.columns() : List.of();
            for (String name : columns) {
                ColumnMetadata c = Restrictions.column(table, name);
                if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY || indexOn(table, c) != null) continue;
                boolean inPartition = c.kind() == ColumnMetadata.Kind.CLUSTERING && where.hasPartitionKey() && !clusteringFiltered;
                if (!inPartition) throw new InvalidRequestException(REQUIRES_INDEXED_FILTERING);
            }
        }
    }

    /** The vector column ordered by. */
    ColumnMetadata column() {
        return column;
    }

    /**
     * Checks a run of the query, before reading: its LIMIT, given and at most {@link #MAX_LIMIT}, and its consistency,
     * not serial; warns, as Cassandra, that a page smaller than the LIMIT is made as large.
     */
    void checkRun(int limit, QueryContext context) {
        if (limit == Integer.MAX_VALUE) {
            throw new InvalidRequestException("Top-K queries must have a limit specified and the limit must be less than the query page size");
        }
        if (limit > MAX_LIMIT) {
            throw new InvalidRequestException("Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than " + MAX_LIMIT
                    + ". LIMIT was " + limit);
        }
        if (context.consistency().isSerial()) {
            throw new InvalidRequestException("Top-K queries can only be run with consistency level ONE/LOCAL_ONE. Consistency level "
                    + context.consistency() + " was used.");
        }
        int pageSize = context.options().pageSize();
        if (pageSize > 0 && pageSize < limit) {
            context.warn("Top-K queries do not support paging and the page size is set to " + pageSize + ", which is less than LIMIT "
                    + limit + ". The page size has been set to " + limit + " to match the LIMIT.");
        }
    }

    /** The query vector bound; a null one is refused as Cassandra refuses it. */
    float[] query(Bindings b) {
        ByteBuffer value = vector.bind(b);
        if (value == null || value == QueryOptions.UNSET) throw new InvalidRequestException("Unsupported null value for column " + column.name());
        float[] query = VectorSimilarity.floats(value);
        similarity.score(query, query); // refuses an all-zero vector for COSINE
        return query;
    }

    /**
     * The indexes of the {@code limit} vectors of {@code vectors} (one-element rows, a row's vector or null) most similar
     * to {@code query}, best first; rows without a vector, or with one the similarity cannot score, are left out.
     */
    List<Integer> nearest(List<ByteBuffer[]> vectors, float[] query, int limit) {
        record Scored(int index, float score) {}
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            ByteBuffer v = vectors.get(i)[0];
            if (v == null || v.remaining() == 0) continue;
            float[] values = VectorSimilarity.floats(v);
            if (similarity == VectorSimilarity.COSINE && isZero(values)) continue; // SAI's cosine index refuses such writes
            scored.add(new Scored(i, similarity.score(query, values)));
        }
        scored.sort(Comparator.comparingDouble(Scored::score).reversed()); // stable: ties keep the read order
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, scored.size()); i++) out.add(scored.get(i).index());
        return out;
    }

    private static boolean isZero(float[] values) {
        for (float f : values) if (f != 0) return false;
        return true;
    }
}

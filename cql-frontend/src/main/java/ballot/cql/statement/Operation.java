package ballot.cql.statement;

import ballot.cql.data.Cell;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Assignment;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * One change to one column of a row: a SET clause of UPDATE, a value of INSERT, or a target of DELETE. Operations on
 * list elements by index and list removals need the current list ({@link #requiresRead()}), as in Cassandra.
 */
abstract class Operation {
    final ColumnMetadata column;

    private Operation(ColumnMetadata column) {
        this.column = column;
    }

    /** Adds this operation's cells to {@code row}. {@code existing} is the current row when {@link #requiresRead()}. */
    abstract void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing);

    boolean requiresRead() {
        return false;
    }

    // ---------------------------------------------------------------- preparation

    /** Prepares {@code c = value} for INSERT and UPDATE. */
    static Operation setValue(TableMetadata table, ColumnMetadata c, ballot.cql.parse.Term term, Markers markers, UserTypeResolver types) {
        if (c.type().kind() == CqlType.Kind.COUNTER) {
            throw new InvalidRequestException("Cannot set the value of counter column " + c.name()
                    + " (counters can only be incremented/decremented, not set)");
        }
        Value value = Terms.prepare(term, spec(table, c), markers, types);
        return c.type().isMultiCell() ? new Overwrite(c, value) : new SetSimple(c, value);
    }

    static Operation of(TableMetadata table, Assignment assignment, Markers markers, UserTypeResolver types) {
        return of(table, assignment, markers, types, false);
    }

    /**
     * Prepares one SET clause; {@code inTransaction}: in a transaction, {@code c += v} and {@code c -= v} (and
     * {@code c = c + v}, {@code c = c - v}) also work on a numeric column that is not a counter, reading the row first,
     * as in Cassandra 6.0.
     */
    static Operation of(TableMetadata table, Assignment assignment, Markers markers, UserTypeResolver types, boolean inTransaction) {
        ColumnMetadata c = Restrictions.column(table, assignment.column());
        if (c.isPrimaryKey()) throw new InvalidRequestException("PRIMARY KEY part " + c.name() + " found in SET part");
        CqlType type = c.type();
        ColumnSpec spec = spec(table, c);
        if (assignment instanceof Assignment.SetValue s) return setValue(table, c, s.value(), markers, types);
        if (assignment instanceof Assignment.SetElement s) {
            if (type instanceof ListType list && type.isMultiCell()) {
                Value index = Terms.prepare(s.key(), Terms.element(spec, "idx", CqlTypes.INT), markers, types);
                Value value = Terms.prepare(s.value(), Terms.element(spec, "value", list.elements()), markers, types);
                return new SetListElement(c, index, value);
            }
            if (type instanceof MapType map && type.isMultiCell()) {
                Value key = Terms.prepare(s.key(), Terms.element(spec, "key", map.keys()), markers, types);
                Value value = Terms.prepare(s.value(), Terms.element(spec, "value", map.values()), markers, types);
                return new SetMapEntry(c, key, value);
            }
            String kind = !type.isCollection() ? "non collection" : !type.isMultiCell() ? "frozen collection" : "set";
            throw new InvalidRequestException("Invalid operation (" + c.name() + "[" + Terms.describe(s.key()) + "] = "
                    + Terms.describe(s.value()) + ") for " + kind + " column " + c.name());
        }
        if (assignment instanceof Assignment.SetField s) {
            if (!(type instanceof UserType udt)) throw new InvalidRequestException("Invalid operation (" + c.name() + "." + s.field() + " = ?) for non-UDT column " + c.name());
            if (!type.isMultiCell()) throw new InvalidRequestException("Invalid operation (" + c.name() + "." + s.field() + " = ?) for frozen UDT column " + c.name());
            int index = udt.fieldIndex(s.field());
            if (index < 0) throw new InvalidRequestException("UDT column " + c.name() + " does not have a field named " + s.field());
            Value value = Terms.prepare(s.value(), new ColumnSpec(table.keyspace(), table.name(), c.name() + "." + s.field(),
                    udt.fieldTypes().get(index)), markers, types);
            return new SetField(c, index, value);
        }
        if (assignment instanceof Assignment.Add a) {
            if (type.kind() == CqlType.Kind.COUNTER) return new CounterDelta(c, Terms.prepare(a.value(), spec, markers, types), false);
            if (inTransaction && Arithmetic.isNumeric(type)) return new NumericDelta(c, Terms.prepare(a.value(), spec, markers, types), '+');
            requireNonFrozenCollection(c, "+", a.value());
            return new AddElements(c, Terms.prepare(a.value(), spec, markers, types), false);
        }
        if (assignment instanceof Assignment.Prepend p) {
            if (!(type instanceof ListType) || !type.isMultiCell()) {
                // Cassandra writes a prepend with '-' in this message
                throw new InvalidRequestException("Invalid operation (" + c.name() + " = " + Terms.describe(p.value()) + " - " + c.name()
                        + ") for " + (type instanceof ListType ? "frozen" : "non") + " list column " + c.name());
            }
            return new AddElements(c, Terms.prepare(p.value(), spec, markers, types), true);
        }
        if (assignment instanceof Assignment.Subtract s) {
            if (type.kind() == CqlType.Kind.COUNTER) return new CounterDelta(c, Terms.prepare(s.value(), spec, markers, types), true);
            if (inTransaction && Arithmetic.isNumeric(type)) return new NumericDelta(c, Terms.prepare(s.value(), spec, markers, types), '-');
            requireNonFrozenCollection(c, "-", s.value());
            if (type instanceof MapType map) {
                SetType keys = CqlTypes.set(map.keys(), true);
                Value value = Terms.prepare(s.value(), new ColumnSpec(table.keyspace(), table.name(), c.name(), keys), markers, types);
                return new RemoveSetElements(c, value, keys);
            }
            if (type instanceof SetType set) return new RemoveSetElements(c, Terms.prepare(s.value(), spec, markers, types), set);
            return new RemoveListValues(c, Terms.prepare(s.value(), spec, markers, types));
        }
        throw new IllegalStateException("unknown assignment " + assignment);
    }

    /** Prepares one target of DELETE. */
    static Operation delete(TableMetadata table, Statement.DeleteTarget target, Markers markers, UserTypeResolver types) {
        ColumnMetadata c = Restrictions.column(table, target.column());
        if (c.isPrimaryKey()) throw new InvalidRequestException("Invalid identifier " + c.name() + " for deletion (should not be a PRIMARY KEY part)");
        ColumnSpec spec = spec(table, c);
        CqlType type = c.type();
        if (target.elementKey() != null) {
            if (!type.isCollection()) throw new InvalidRequestException("Invalid deletion operation for non collection column " + c.name());
            if (!type.isMultiCell()) throw new InvalidRequestException("Invalid deletion operation for frozen collection column " + c.name());
            if (type instanceof ListType) {
                return new DeleteListElement(c, Terms.prepare(target.elementKey(), Terms.element(spec, "idx", CqlTypes.INT), markers, types));
            }
            if (type instanceof MapType map) {
                return new DeleteElement(c, Terms.prepare(target.elementKey(), Terms.element(spec, "key", map.keys()), markers, types),
                        "Invalid null map key");
            }
            SetType set = (SetType) type;
            return new DeleteElement(c, Terms.prepare(target.elementKey(), Terms.element(spec, "value", set.elements()), markers, types),
                    "Invalid null set element");
        }
        if (target.field() != null) {
            if (!(type instanceof UserType udt)) throw new InvalidRequestException("Invalid field deletion operation for non-UDT column " + c.name());
            if (!type.isMultiCell()) throw new InvalidRequestException("Frozen UDT column " + c.name() + " does not support field deletions");
            int index = udt.fieldIndex(target.field());
            if (index < 0) throw new InvalidRequestException("UDT column " + c.name() + " does not have a field named " + target.field());
            return new DeleteField(c, index);
        }
        return new DeleteColumn(c);
    }

    /** {@code c = c op value} needs a non-frozen collection; refused as Cassandra words it, the value as written. */
    private static void requireNonFrozenCollection(ColumnMetadata c, String op, ballot.cql.parse.Term value) {
        CqlType type = c.type();
        String operation = "Invalid operation (" + c.name() + " = " + c.name() + " " + op + " " + Terms.describe(value) + ")";
        if (!type.isCollection()) throw new InvalidRequestException(operation + " for non counter column " + c.name());
        if (!type.isMultiCell()) throw new InvalidRequestException(operation + " for frozen collection column " + c.name());
    }

    private static ColumnSpec spec(TableMetadata table, ColumnMetadata c) {
        return new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type());
    }

    private static boolean unset(ByteBuffer value) {
        return value == QueryOptions.UNSET;
    }

    static ByteBuffer fieldPath(int index) {
        return ByteBuffer.allocate(2).putShort(0, (short) index);
    }

    // ---------------------------------------------------------------- operations

    private static final class SetSimple extends Operation {
        private final Value value;

        SetSimple(ColumnMetadata c, Value value) {
            super(c);
            this.value = value;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            row.add(params.cell(column.id(), null, v));
        }
    }

    /**
     * {@code c += v} or {@code c -= v} on a numeric column in a transaction: the current value read with the row,
     * changed by v with CQL's arithmetic (integers wrap, decimals are exact). A missing value is an error, not zero, so
     * that an account that has no balance is never given one by a transfer.
     */
    private static final class NumericDelta extends Operation {
        private final Value value;
        private final char op;

        NumericDelta(ColumnMetadata c, Value value, char op) {
            super(c);
            this.value = value;
            this.op = op;
        }

        @Override
        boolean requiresRead() {
            return true;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            if (v == null) throw new InvalidRequestException("Invalid null value for " + column.name() + " " + op + "=");
            ByteBuffer current = existing == null ? null : column.type().orNoValue(existing.value(column));
            if (current == null) {
                throw new InvalidRequestException("Cannot apply " + column.name() + " " + op + "= to " + column.name()
                        + ", which has no value in this row");
            }
            row.add(params.cell(column.id(), null, Arithmetic.apply(op, column.type(), current, column.type(), v, column.type())));
        }
    }

    /** Replaces a whole multi-cell column: deletes it just before the timestamp, then writes the elements. */
    private static final class Overwrite extends Operation {
        private final Value value;

        Overwrite(ColumnMetadata c, Value value) {
            super(c);
            this.value = value;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            row.deleteComplex(column.id(), params.overwriteDeletion());
            if (v != null) addElements(column, row, v, params, false);
        }
    }

    /** Writes the elements of a serialized collection or UDT value as cells. */
    static void addElements(ColumnMetadata column, UpdatesBuilder.RowBuilder row, ByteBuffer value, UpdateParams params, boolean prepend) {
        CqlType type = column.type();
        if (type instanceof ListType list) {
            List<ByteBuffer> elements = list.unpack(value);
            for (int i = 0; i < elements.size(); i++) {
                ByteBuffer path = prepend ? ListPaths.prepend(params.listTime(), i) : ListPaths.append(params.listTime(), i);
                row.add(params.cell(column.id(), path, elements.get(i)));
            }
        } else if (type instanceof SetType set) {
            for (ByteBuffer element : set.unpack(value)) row.add(elementCell(column, params, element, ByteBuffer.allocate(0)));
        } else if (type instanceof MapType map) {
            for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(value)) row.add(elementCell(column, params, e.getKey(), e.getValue()));
        } else if (type instanceof UserType udt) {
            List<ByteBuffer> fields = udt.unpack(value);
            for (int i = 0; i < udt.size(); i++) {
                ByteBuffer field = i < fields.size() ? fields.get(i) : null;
                row.add(params.cell(column.id(), fieldPath(i), field));
            }
        } else {
            throw new IllegalStateException("not a multi-cell type: " + type);
        }
    }

    /**
     * The cell path of a set element or a map key ({@code collection} is the set or map type): its canonical form.
     * Cells are matched by their paths' bytes, so equal elements written differently (the decimals 1.5 and 1.50) must
     * share one path, or a later write or removal of one would miss the other.
     */
    static ByteBuffer elementPath(CqlType collection, ByteBuffer element) {
        CqlType keys = collection instanceof MapType map ? map.keys() : ((SetType) collection).elements();
        return keys.canonical(element);
    }

    /**
     * The cell of a set element or map key written as {@code element} (a map entry's value, or empty for a set): at the
     * element's canonical path, remembering the element as written where that differs ({@link Cell#writtenPath}).
     */
    private static Cell elementCell(ColumnMetadata column, UpdateParams params, ByteBuffer element, ByteBuffer value) {
        return params.cell(column.id(), elementPath(column.type(), element), value).writtenAs(element);
    }

    /** Adds elements to a collection: appends (or prepends) to a list, adds to a set or a map. */
    private static final class AddElements extends Operation {
        private final Value value;
        private final boolean prepend;

        AddElements(ColumnMetadata c, Value value, boolean prepend) {
            super(c);
            this.value = value;
            this.prepend = prepend;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (v == null || unset(v)) return;
            addElements(column, row, v, params, prepend);
        }
    }

    private static final class RemoveSetElements extends Operation {
        private final Value value;
        private final SetType set;

        RemoveSetElements(ColumnMetadata c, Value value, SetType set) {
            super(c);
            this.value = value;
            this.set = set;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (v == null || unset(v)) return;
            for (ByteBuffer element : set.unpack(v)) row.add(params.tombstone(column.id(), elementPath(set, element)));
        }
    }

    private static final class RemoveListValues extends Operation {
        private final Value value;

        RemoveListValues(ColumnMetadata c, Value value) {
            super(c);
            this.value = value;
        }

        @Override
        boolean requiresRead() {
            return true;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (v == null || unset(v) || existing == null) return;
            ListType list = (ListType) column.type();
            List<ByteBuffer> toRemove = list.unpack(v);
            for (Cell cell : existing.cells(column)) {
                for (ByteBuffer r : toRemove) {
                    if (list.elements().compare(cell.value(), r) == 0) {
                        row.add(params.tombstone(column.id(), cell.path()));
                        break;
                    }
                }
            }
        }
    }

    private static final class SetListElement extends Operation {
        private final Value index;
        private final Value value;

        SetListElement(ColumnMetadata c, Value index, Value value) {
            super(c);
            this.index = index;
            this.value = value;
        }

        @Override
        boolean requiresRead() {
            return true;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            Cell cell = listCell(column, index, b, existing, "set an element on");
            row.add(params.cell(column.id(), cell.path(), v));
        }
    }

    private static final class DeleteListElement extends Operation {
        private final Value index;

        DeleteListElement(ColumnMetadata c, Value index) {
            super(c);
            this.index = index;
        }

        @Override
        boolean requiresRead() {
            return true;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            Cell cell = listCell(column, index, b, existing, "delete an element from");
            row.add(params.tombstone(column.id(), cell.path()));
        }
    }

    /** The live cell at a list index; a list with no live element is null, whatever the index (Cassandra's wording). */
    private static Cell listCell(ColumnMetadata column, Value indexValue, Bindings b, RowView existing, String action) {
        ByteBuffer idx = indexValue.bind(b);
        if (idx == null || unset(idx)) throw new InvalidRequestException("Invalid null value for list index");
        int i = idx.getInt(idx.position());
        List<Cell> cells = existing == null ? List.of() : existing.cells(column);
        if (cells.isEmpty()) throw new InvalidRequestException("Attempted to " + action + " a list which is null");
        if (i < 0 || i >= cells.size()) {
            throw new InvalidRequestException("List index " + i + " out of bound, list has size " + cells.size());
        }
        return cells.get(i);
    }

    private static final class SetMapEntry extends Operation {
        private final Value key;
        private final Value value;

        SetMapEntry(ColumnMetadata c, Value key, Value value) {
            super(c);
            this.key = key;
            this.value = value;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer k = key.bind(b);
            if (k == null || unset(k)) throw new InvalidRequestException("Invalid null map key");
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            row.add(elementCell(column, params, k, v));
        }
    }

    private static final class SetField extends Operation {
        private final int index;
        private final Value value;

        SetField(ColumnMetadata c, int index, Value value) {
            super(c);
            this.index = index;
            this.value = value;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            row.add(params.cell(column.id(), fieldPath(index), v));
        }
    }

    private static final class CounterDelta extends Operation {
        private final Value value;
        private final boolean negate;

        CounterDelta(ColumnMetadata c, Value value, boolean negate) {
            super(c);
            this.value = value;
            this.negate = negate;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer v = value.bind(b);
            if (unset(v)) return;
            if (v == null) throw new InvalidRequestException("Invalid null value for counter increment/decrement");
            long delta = v.getLong(v.position());
            if (negate) {
                if (delta == Long.MIN_VALUE) throw new InvalidRequestException("The negation of " + delta + " overflows supported counter precision (signed 8 bytes integer)");
                delta = -delta;
            }
            row.add(Cell.counterDelta(column.id(), delta, params.timestamp()));
        }
    }

    private static final class DeleteColumn extends Operation {
        DeleteColumn(ColumnMetadata c) {
            super(c);
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            if (column.type().isMultiCell()) row.deleteComplex(column.id(), params.deletion());
            else row.add(params.tombstone(column.id(), null));
        }
    }

    private static final class DeleteElement extends Operation {
        private final Value key;
        private final String nullKeyMessage;

        DeleteElement(ColumnMetadata c, Value key, String nullKeyMessage) {
            super(c);
            this.key = key;
            this.nullKeyMessage = nullKeyMessage;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            ByteBuffer k = key.bind(b);
            if (k == null || unset(k)) throw new InvalidRequestException(nullKeyMessage);
            row.add(params.tombstone(column.id(), elementPath(column.type(), k)));
        }
    }

    private static final class DeleteField extends Operation {
        private final int index;

        DeleteField(ColumnMetadata c, int index) {
            super(c);
            this.index = index;
        }

        @Override
        void apply(UpdatesBuilder.RowBuilder row, Bindings b, UpdateParams params, RowView existing) {
            row.add(params.tombstone(column.id(), fieldPath(index)));
        }
    }
}

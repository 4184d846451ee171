package ballot.txn;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the protocol keeps in one partition (docs/txn.md §2): the committed value (null = absent), at most one
 * intent, at most one reservation, markers by transaction, and the records of transactions homed here. Immutable; maps
 * iterate in key order so that a replayed simulation sends the same steps.
 */
public record PartitionState<V>(V value, Intent<V> intent, Reservation reservation, SortedMap<TxnId, Marker> markers,
        SortedMap<TxnId, Record> records) {

    public PartitionState {
        markers = Collections.unmodifiableSortedMap(new TreeMap<>(markers));
        records = Collections.unmodifiableSortedMap(new TreeMap<>(records));
    }

    public static <V> PartitionState<V> of(V value) {
        return new PartitionState<>(value, null, null, new TreeMap<>(), new TreeMap<>());
    }

    public PartitionState<V> withValue(V newValue) {
        return new PartitionState<>(newValue, intent, reservation, markers, records);
    }

    public PartitionState<V> withIntent(Intent<V> newIntent) {
        return new PartitionState<>(value, newIntent, reservation, markers, records);
    }

    public PartitionState<V> withReservation(Reservation newReservation) {
        return new PartitionState<>(value, intent, newReservation, markers, records);
    }

    public PartitionState<V> withoutRecord(TxnId id) {
        SortedMap<TxnId, Record> next = new TreeMap<>(records);
        next.remove(id);
        return new PartitionState<>(value, intent, reservation, markers, next);
    }

    /** The reservation if it is still live at {@code nowMicros}, else null (§5.1). */
    public Reservation reservationAt(long nowMicros) {
        return reservation != null && reservation.liveAt(nowMicros) ? reservation : null;
    }

    /** Keeps the marker of the highest epoch (a later epoch's marker also refuses earlier epochs, §3.3). */
    public PartitionState<V> withMarker(TxnId id, Marker marker) {
        Marker old = markers.get(id);
        if (old != null && old.epoch() > marker.epoch()) return this;
        SortedMap<TxnId, Marker> next = new TreeMap<>(markers);
        next.put(id, marker);
        return new PartitionState<>(value, intent, reservation, next, records);
    }

    public PartitionState<V> withoutMarker(TxnId id) {
        if (!markers.containsKey(id)) return this;
        SortedMap<TxnId, Marker> next = new TreeMap<>(markers);
        next.remove(id);
        return new PartitionState<>(value, intent, reservation, next, records);
    }

    public PartitionState<V> withRecord(Record record) {
        SortedMap<TxnId, Record> next = new TreeMap<>(records);
        next.put(record.id(), record);
        return new PartitionState<>(value, intent, reservation, markers, next);
    }

    /**
     * Drops markers whose deadline has passed (time refuses their attempts from now on, §2, §7) and a reservation
     * whose lease has ended (§5.1).
     */
    public PartitionState<V> withoutExpired(long nowMicros) {
        Reservation live = reservationAt(nowMicros);
        if (live == reservation && markers.values().stream().noneMatch(m -> m.deadlineMicros() < nowMicros)) return this;
        SortedMap<TxnId, Marker> next = new TreeMap<>(markers);
        next.values().removeIf(m -> m.deadlineMicros() < nowMicros);
        return new PartitionState<>(value, intent, live, next, records);
    }

    public Record record(TxnId id) {
        return records.get(Objects.requireNonNull(id));
    }

    /** The intent of {@code id}'s transaction, any epoch, or null. */
    public Intent<V> intentOf(TxnId id) {
        return intent != null && intent.attempt().id().equals(id) ? intent : null;
    }
}

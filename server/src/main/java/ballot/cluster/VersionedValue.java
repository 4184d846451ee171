package ballot.cluster;

/** One application state value and the version its owner gave it. */
record VersionedValue(String value, int version) {
    VersionedValue {
        if (value == null) throw new IllegalArgumentException("null value");
    }
}

package ballot.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Snapshots of the node's data, as {@code nodetool snapshot} takes them: each is a RocksDB checkpoint of the whole
 * database (every table, index, the Paxos registers and the node's metadata, consistent at one instant) in
 * {@code <snapshots>/<tag>}, its SST files hard links to the live ones, so taking one costs a memtable flush and no copy.
 * A snapshot is restored by starting a node on a copy of its directory (docs/admin.md, "Snapshots").
 */
public final class Snapshots {
    /** Tags name directories: no separators, nothing hidden. */
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    /**
     * One snapshot. {@code sizeBytes} counts all its files; {@code trueSizeBytes} those only it holds (no longer
     * shared with the live database or another snapshot), which is what clearing it frees.
     */
    public record Snapshot(String tag, long createdMillis, long sizeBytes, long trueSizeBytes) {}

    private final Path directory;
    private final StorageEngine storage;

    public Snapshots(Path directory, StorageEngine storage) {
        this.directory = directory;
        this.storage = storage;
    }

    /**
     * Takes a snapshot named {@code tag}.
     *
     * @throws IllegalArgumentException if the tag is not a plain name or a snapshot has it already
     */
    public synchronized Snapshot take(String tag) {
        if (!TAG.matcher(tag).matches())
            throw new IllegalArgumentException("invalid snapshot name '" + tag + "': letters, digits, '_', '-' and '.' only (at most 128), not starting with '-' or '.'");
        Path target = directory.resolve(tag);
        if (Files.exists(target)) throw new IllegalArgumentException("Snapshot " + tag + " already exists.");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the snapshots directory " + directory, e);
        }
        storage.checkpoint(target);
        return read(target);
    }

    /** The snapshots there are, oldest first. */
    public synchronized List<Snapshot> list() {
        List<Snapshot> snapshots = new ArrayList<>();
        if (!Files.isDirectory(directory)) return snapshots;
        try (Stream<Path> tags = Files.list(directory)) {
            for (Path tag : tags.filter(Files::isDirectory).toList()) snapshots.add(read(tag));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the snapshots in " + directory, e);
        }
        snapshots.sort(Comparator.comparingLong(Snapshot::createdMillis).thenComparing(Snapshot::tag));
        return snapshots;
    }

    /**
     * Deletes the snapshot named {@code tag}, or every snapshot if {@code tag} is null, and returns the tags deleted.
     *
     * @throws IllegalArgumentException if there is no snapshot of that name
     */
    public synchronized List<String> clear(String tag) {
        List<String> cleared = new ArrayList<>();
        for (Snapshot s : list()) {
            if (tag != null && !s.tag().equals(tag)) continue;
            delete(directory.resolve(s.tag()));
            cleared.add(s.tag());
        }
        if (tag != null && cleared.isEmpty()) throw new IllegalArgumentException("no snapshot named '" + tag + "'");
        return cleared;
    }

    private static Snapshot read(Path snapshot) {
        long size = 0, trueSize = 0;
        try (Stream<Path> files = Files.list(snapshot)) {
            for (Path file : files.toList()) {
                long bytes = Files.size(file);
                size += bytes;
                if ((Integer) Files.getAttribute(file, "unix:nlink") == 1) trueSize += bytes;
            }
            long created = Files.readAttributes(snapshot, BasicFileAttributes.class).lastModifiedTime().toMillis();
            return new Snapshot(snapshot.getFileName().toString(), created, size, trueSize);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + snapshot, e);
        }
    }

    private static void delete(Path snapshot) {
        try (Stream<Path> files = Files.list(snapshot)) {
            for (Path file : files.toList()) Files.delete(file);
            Files.delete(snapshot);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete snapshot " + snapshot, e);
        }
    }
}

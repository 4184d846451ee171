package ballot.node;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small filesystem for the disk-full tests: a tmpfs of a fixed size mounted where a node keeps its data (needs
 * root), and ballast files that fill it.
 */
final class Tmpfs {
    private Tmpfs() {}

    /** Mounts a tmpfs of {@code size} (mount's syntax: 160m, 1g) at {@code at}; the output of mount if it failed, else null. */
    static String mount(Path at, String size) throws IOException, InterruptedException {
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
                .redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes()).strip();
        return mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0 ? null : output;
    }

    static void unmount(Path at) throws IOException, InterruptedException {
        new ProcessBuilder("umount", "-l", at.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }

    /** Writes {@code bytes} of zeros to {@code file}, or as many as fit: the filesystem may be full a little earlier. */
    static void fill(Path file, long bytes) throws IOException {
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < bytes; written += chunk.length) out.write(chunk, 0, (int) Math.min(chunk.length, bytes - written));
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) throw full;
        }
    }
}

package ballot.cql.execute;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The priority a client gives one request in its custom payload (docs/admission.md): the key {@value #KEY} with the
 * UTF-8 value {@code normal} (what a request without it gets) or {@code background}. A client may lower its request's
 * priority, never raise it: the priorities above normal are the node's own work.
 */
final class PayloadPriority {
    static final String KEY = "ballot.priority";

    private PayloadPriority() {}

    /**
     * Whether {@code payload} lowers its request to background priority.
     *
     * @throws InvalidRequestException when {@value #KEY} names anything but normal or background
     */
    static boolean background(Map<String, ByteBuffer> payload) {
        ByteBuffer value = payload.get(KEY);
        if (value == null) return false;
        String name;
        try {
            name = StandardCharsets.UTF_8.newDecoder().decode(value.duplicate()).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException("custom payload " + KEY + " is not UTF-8 text; it takes 'normal' or 'background'");
        }
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "normal" -> false;
            case "background" -> true;
            default -> throw new InvalidRequestException("custom payload " + KEY + " is '" + name
                    + "'; it takes 'normal' or 'background' (a request may lower its priority, not raise it)");
        };
    }
}

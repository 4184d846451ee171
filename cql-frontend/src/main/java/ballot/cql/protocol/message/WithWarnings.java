package ballot.cql.protocol.message;

import java.util.List;

/** A response together with the warnings the server raised while producing it. */
public record WithWarnings(Response response, List<String> warnings) implements Response {
    public WithWarnings {
        if (response instanceof WithWarnings) throw new IllegalArgumentException("warnings wrapped twice");
        warnings = List.copyOf(warnings);
    }

    @Override
    public Response withWarnings(List<String> more) {
        List<String> all = new java.util.ArrayList<>(warnings);
        all.addAll(more);
        return new WithWarnings(response, all);
    }
}

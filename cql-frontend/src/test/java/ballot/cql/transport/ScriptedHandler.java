package ballot.cql.transport;

import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** A {@link RequestHandler} whose answers the test completes, in any order, whenever it likes. */
final class ScriptedHandler implements RequestHandler {
    record Call(Request request, ClientState client, CompletableFuture<Response> answer) {
        String query() {
            return ((Query) request).query();
        }
    }

    final List<Call> calls = new ArrayList<>();

    @Override
    public CompletionStage<Response> handle(Request request, ClientState client) {
        Call call = new Call(request, client, new CompletableFuture<>());
        calls.add(call);
        return call.answer();
    }

    Call call(int index) {
        return calls.get(index);
    }
}

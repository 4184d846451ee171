package ballot.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's {@code chromium} without a display, driven over the Chrome DevTools Protocol on one page's WebSocket with
 * the JDK's client: commands wait for their answer, and every event the page sends is kept for the test to read.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper json = new ObjectMapper();
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new ArrayList<>();

    private HeadlessChromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** The browser on this host's PATH ({@code chromium}, as Debian installs it), if there is one. */
    static Optional<Path> binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Starts the browser with a profile in {@code profile} and its output in {@code log}, and attaches to its page. */
    static HeadlessChromium launch(Path binary, Path profile, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(binary.toString(), "--headless=new", "--remote-debugging-port=0",
                "--remote-allow-origins=*", "--user-data-dir=" + profile, "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--window-size=1280,1900", "about:blank")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            int port = debuggingPort(process, profile.resolve("DevToolsActivePort"), log);
            HttpClient http = HttpClient.newHttpClient();
            JsonNode targets = json.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            String page = null;
            for (JsonNode target : targets) if (target.path("type").asText().equals("page")) page = target.path("webSocketDebuggerUrl").asText();
            if (page == null) throw new IllegalStateException("chromium has no page to attach to: " + targets);
            HeadlessChromium[] self = new HeadlessChromium[1];
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(page), new WebSocket.Listener() {
                private final StringBuilder message = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                    message.append(data);
                    if (last) {
                        self[0].received(message.toString());
                        message.setLength(0);
                    }
                    webSocket.request(1);
                    return null;
                }
            }).get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            self[0] = new HeadlessChromium(process, socket);
            return self[0];
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("cannot attach to chromium: " + e, e);
        }
    }

    /** The port chromium chose: the first line of the file it writes in its profile once it listens. */
    private static int debuggingPort(Process process, Path activePort, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (Files.exists(activePort)) {
                List<String> lines = Files.readAllLines(activePort);
                if (!lines.isEmpty() && !lines.get(0).isBlank()) return Integer.parseInt(lines.get(0).trim());
            }
            if (!process.isAlive()) break;
            Thread.sleep(100);
        }
        throw new IllegalStateException("chromium did not open its debugging port; its output:\n" + Files.readString(log));
    }

    private void received(String text) {
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("chromium sent a message that is not JSON: " + text, e);
        }
        if (message.has("id")) {
            CompletableFuture<JsonNode> answer = waiting.remove(message.get("id").asInt());
            if (answer != null) answer.complete(message);
        } else {
            synchronized (events) {
                events.add(message);
            }
        }
    }

    /** Sends {@code method} and returns its {@code result}; an {@code error} answer fails the test. */
    JsonNode send(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        ObjectNode command = json.createObjectNode().put("id", id).put("method", method);
        command.set("params", params);
        socket.sendText(json.writeValueAsString(command), true).get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        JsonNode reply = answer.get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (reply.has("error")) throw new AssertionError(method + " failed: " + reply.get("error"));
        return reply.get("result");
    }

    JsonNode send(String method) throws Exception {
        return send(method, json.createObjectNode());
    }

    /** The value of {@code expression} in the page, as JSON; an exception in it fails the test. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode result = send("Runtime.evaluate", json.createObjectNode().put("expression", expression).put("returnByValue", true));
        if (result.has("exceptionDetails")) throw new AssertionError(expression + " threw: " + result.get("exceptionDetails"));
        return result.path("result").path("value");
    }

    /** The events received so far, in order. */
    List<JsonNode> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    @Override
    public void close() throws InterruptedException {
        socket.abort();
        List<ProcessHandle> children = process.descendants().toList(); // its renderers and helpers
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }
}

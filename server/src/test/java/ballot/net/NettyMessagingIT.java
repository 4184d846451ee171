package ballot.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.net.MessagingException.Reason;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link NettyMessaging} over real sockets on 127.0.0.1 with ephemeral ports (docs/membership.md §1). */
class NettyMessagingIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Codec<String> STRING = new Codec<>() {
        @Override
        public void encode(String value, ByteBuf out) {
            Codecs.writeString(out, value);
        }

        @Override
        public String decode(ByteBuf in) {
            return Codecs.readString(in);
        }
    };
    private static final Verb<String, String> UPPER = new Verb<>(100, "UPPER", STRING, STRING);
    private static final Verb<String, String> FROM = new Verb<>(101, "FROM", STRING, STRING);
    private static final Verb<String, String> NEVER = new Verb<>(102, "NEVER", STRING, STRING);
    private static final Verb<String, String> FAILING = new Verb<>(103, "FAILING", STRING, STRING);
    private static final Verb<String, String> UNKNOWN = new Verb<>(104, "UNKNOWN", STRING, STRING);
    private static final Verb<String, String> THREAD = new Verb<>(105, "THREAD", STRING, STRING);
    private static final Verb<String, String> THREAD_HANDED_OVER = new Verb<>(106, "THREAD_HANDED_OVER", STRING, STRING);
    /** Answered once the test completes {@link #gate}: the requester's continuation is attached before any reply. */
    private static final Verb<String, String> GATED = new Verb<>(107, "GATED", STRING, STRING);

    private volatile CompletableFuture<String> gate = new CompletableFuture<>();

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) resources.get(i).close();
    }

    private NettyMessaging start(String cluster, UUID hostId, int port) {
        return start(MessagingOptions.builder(cluster, hostId, new InetSocketAddress(loopback(), port)));
    }

    private NettyMessaging start(MessagingOptions.Builder options) {
        NettyMessaging messaging = NettyMessaging.start(options.connectTimeout(Duration.ofMillis(500))
                .reconnectDelayMin(Duration.ofMillis(20)).reconnectDelayMax(Duration.ofMillis(200)).build());
        resources.add(messaging);
        messaging.handle(UPPER, (request, from) -> CompletableFuture.completedFuture(request.toUpperCase()));
        messaging.handle(FROM, (request, from) -> CompletableFuture.completedFuture(from.toString()));
        messaging.handle(NEVER, (request, from) -> new CompletableFuture<>());
        messaging.handle(GATED, (request, from) -> gate);
        messaging.handle(THREAD, (request, from) -> CompletableFuture.completedFuture(Thread.currentThread().getName()));
        messaging.handle(THREAD_HANDED_OVER, (request, from) -> CompletableFuture.completedFuture(Thread.currentThread().getName()),
                Messaging.Dispatch.HAND_OVER);
        messaging.handle(FAILING, (request, from) -> {
            throw new IllegalStateException("handler bug for " + request);
        });
        return messaging;
    }

    private NettyMessaging start() {
        return start("c", UUID.randomUUID(), 0);
    }

    @Test
    void requestsAreAnsweredInBothDirections() throws Exception {
        NettyMessaging a = start();
        NettyMessaging b = start();
        assertThat(a.request(b.localAddress(), UPPER, "hello", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo("HELLO");
        assertThat(b.request(a.localAddress(), UPPER, "back", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo("BACK");
        assertThat(a.request(b.localAddress(), FROM, "", TIMEOUT).get(5, TimeUnit.SECONDS))
                .as("the handler sees the requester's listen address").isEqualTo(a.localAddress().toString());
    }

    @Test
    void handOverHandlersAndRepliesRunOnTheNetworkThreadsAndNothingElseDoes() throws Exception {
        NettyMessaging a = start();
        NettyMessaging b = start();
        assertThat(a.request(b.localAddress(), THREAD, "", TIMEOUT).get(5, TimeUnit.SECONDS)).startsWith("messaging-handler");
        assertThat(a.request(b.localAddress(), THREAD_HANDED_OVER, "", TIMEOUT).get(5, TimeUnit.SECONDS)).startsWith("messaging-io");
        assertThat(completingThread(() -> a.request(b.localAddress(), GATED, "x", TIMEOUT))).startsWith("messaging-callback");
        assertThat(completingThread(() -> a.request(b.localAddress(), GATED, "x", TIMEOUT, Messaging.Dispatch.HAND_OVER)))
                .startsWith("messaging-io");
    }

    /** The thread that completes the reply to {@code request}, a GATED one: the gate opens once the continuation is attached. */
    private String completingThread(java.util.function.Supplier<CompletableFuture<String>> request) throws Exception {
        gate = new CompletableFuture<>();
        CompletableFuture<String> thread = request.get().thenApply(value -> Thread.currentThread().getName());
        gate.complete("X");
        return thread.get(5, TimeUnit.SECONDS);
    }

    @Test
    void manyConcurrentRequestsAreCorrelated() throws Exception {
        NettyMessaging a = start();
        NettyMessaging b = start();
        List<CompletableFuture<String>> replies = new ArrayList<>();
        for (int i = 0; i < 2000; i++) replies.add(a.request(b.localAddress(), UPPER, "r" + i, TIMEOUT));
        for (int i = 0; i < replies.size(); i++) assertThat(replies.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("R" + i);
    }

    @Test
    void requestToItselfTakesTheLoopbackPath() throws Exception {
        NettyMessaging a = start();
        assertThat(a.request(a.localAddress(), UPPER, "self", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo("SELF");
        assertThat(a.request(a.localAddress(), FROM, "", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo(a.localAddress().toString());
        assertThat(reason(a.request(a.localAddress(), NEVER, "x", Duration.ofMillis(100)))).isEqualTo(Reason.TIMEOUT);
    }

    @Test
    void unansweredRequestTimesOut() {
        NettyMessaging a = start();
        NettyMessaging b = start();
        long started = System.nanoTime();
        CompletableFuture<String> reply = a.request(b.localAddress(), NEVER, "x", Duration.ofMillis(200));
        assertThat(reason(reply)).isEqualTo(Reason.TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(150), Duration.ofSeconds(3));
        assertThat(failure(reply)).hasMessageContaining("within 200 ms");
    }

    @Test
    void handlerFailureAndUnknownVerbAreRemoteErrors() {
        NettyMessaging a = start();
        NettyMessaging b = start();
        CompletableFuture<String> failing = a.request(b.localAddress(), FAILING, "x", TIMEOUT);
        assertThat(reason(failing)).isEqualTo(Reason.REMOTE_ERROR);
        assertThat(failure(failing)).hasMessageContaining("handler bug for x");
        CompletableFuture<String> unknown = a.request(b.localAddress(), UNKNOWN, "x", TIMEOUT);
        assertThat(reason(unknown)).isEqualTo(Reason.REMOTE_ERROR);
        assertThat(failure(unknown)).hasMessageContaining("verb id 104 is unknown");
    }

    @Test
    void verbIdCannotBeTakenTwice() {
        NettyMessaging a = start();
        assertThatThrownBy(() -> a.handle(new Verb<>(100, "OTHER", STRING, STRING), (r, f) -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already registered as UPPER(100)");
    }

    @Test
    void oversizedRequestFailsAtTheCaller() {
        NettyMessaging a = start(MessagingOptions.builder("c", UUID.randomUUID(), new InetSocketAddress(loopback(), 0)).frameBytesMax(8192));
        NettyMessaging b = start();
        assertThat(failure(a.request(b.localAddress(), UPPER, "x".repeat(10_000), TIMEOUT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit is 8192 (frameBytesMax)");
    }

    @Test
    void unreachablePeerFailsFastAndBacksOff() throws IOException {
        NettyMessaging a = start();
        InetSocketAddress nobody = freeAddress();
        assertThat(reason(a.request(nobody, UPPER, "x", TIMEOUT))).isEqualTo(Reason.UNREACHABLE);
        CompletableFuture<String> during = a.request(nobody, UPPER, "x", TIMEOUT);
        assertThat(reason(during)).isEqualTo(Reason.UNREACHABLE);
        assertThat(failure(during)).hasMessageContaining("next attempt in");
    }

    @Test
    void restartedPeerIsReachedAgain() throws Exception {
        NettyMessaging a = start();
        UUID hostId = UUID.randomUUID();
        NettyMessaging b = start("c", hostId, 0);
        int port = b.localAddress().getPort();
        assertThat(a.request(b.localAddress(), UPPER, "one", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo("ONE");
        b.close();
        assertThat(reason(a.request(b.localAddress(), UPPER, "gone", TIMEOUT))).isEqualTo(Reason.UNREACHABLE);
        NettyMessaging restarted = start("c", hostId, port);
        String reply = null;
        for (int attempt = 0; attempt < 100 && reply == null; attempt++) {
            try {
                reply = a.request(restarted.localAddress(), UPPER, "two", TIMEOUT).get(5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertThat(((MessagingException) e.getCause()).reason()).isEqualTo(Reason.UNREACHABLE);
                Thread.sleep(20);
            }
        }
        assertThat(reply).isEqualTo("TWO");
    }

    @Test
    void peerOfAnotherClusterIsRefused() {
        NettyMessaging a = start("alpha", UUID.randomUUID(), 0);
        NettyMessaging b = start("beta", UUID.randomUUID(), 0);
        CompletableFuture<String> reply = a.request(b.localAddress(), UPPER, "x", TIMEOUT);
        assertThat(reason(reply)).isEqualTo(Reason.REFUSED);
        assertThat(failure(reply)).hasMessageContaining("cluster name 'alpha' does not match 'beta'");
    }

    @Test
    void unknownMessagingVersionIsRefusedWithBothRanges() throws IOException {
        NettyMessaging b = start();
        Frame answer = handshake(b.localAddress(), new WireFormat.Hello(7, 9, "c", UUID.randomUUID(), new InetSocketAddress(loopback(), 7777)));
        assertThat(answer.type()).isEqualTo(WireFormat.REFUSE);
        WireFormat.Refuse refuse = WireFormat.readRefuse(answer.body());
        assertThat(refuse.reason()).isEqualTo(WireFormat.RefuseReason.VERSION);
        assertThat(refuse.message()).contains("messaging version 7..9 is unknown").contains("speaks 2");
        assertThat(refuse.versionMax()).isEqualTo(WireFormat.VERSION_MAX);
    }

    @Test
    void hostIdConnectedFromAnotherAddressIsRefused() throws Exception {
        UUID hostId = UUID.randomUUID();
        NettyMessaging a = start("c", hostId, 0);
        NettyMessaging b = start();
        assertThat(a.request(b.localAddress(), UPPER, "x", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo("X");
        NettyMessaging impostor = start("c", hostId, 0);
        CompletableFuture<String> reply = impostor.request(b.localAddress(), UPPER, "x", TIMEOUT);
        assertThat(reason(reply)).isEqualTo(Reason.REFUSED);
        assertThat(failure(reply)).hasMessageContaining("host id " + hostId + " is already connected from " + a.localAddress());
    }

    @Test
    void addressConnectedAsAnotherHostIdIsRefused() throws Exception {
        NettyMessaging a = start();
        NettyMessaging b = start();
        assertThat(a.request(b.localAddress(), UPPER, "x", TIMEOUT).get(5, TimeUnit.SECONDS)).isEqualTo("X");
        Frame answer = handshake(b.localAddress(), new WireFormat.Hello(WireFormat.VERSION_MIN, WireFormat.VERSION_MAX, "c", UUID.randomUUID(), a.localAddress()));
        assertThat(answer.type()).isEqualTo(WireFormat.REFUSE);
        assertThat(WireFormat.readRefuse(answer.body()).reason()).isEqualTo(WireFormat.RefuseReason.ADDRESS);
    }

    @Test
    void peerValidatorRefusalReachesTheCaller() {
        NettyMessaging a = start();
        NettyMessaging b = start();
        b.peerValidator((hostId, address) -> "host id " + hostId + " belongs to live node 127.0.0.9:7000");
        CompletableFuture<String> reply = a.request(b.localAddress(), UPPER, "x", TIMEOUT);
        assertThat(reason(reply)).isEqualTo(Reason.REFUSED);
        assertThat(failure(reply)).hasMessageContaining("belongs to live node 127.0.0.9:7000");
    }

    @Test
    void nonBallotPeerIsDisconnected() throws IOException {
        NettyMessaging b = start();
        try (Socket socket = new Socket()) {
            socket.connect(b.localAddress(), 1000);
            socket.setSoTimeout(3000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
            assertThat(socket.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
        }
    }

    @Test
    void fullOutboundQueueFailsFastWithOverloaded() throws IOException {
        NettyMessaging a = start(MessagingOptions.builder("c", UUID.randomUUID(), new InetSocketAddress(loopback(), 0))
                .outboundQueueMessagesMax(8));
        try (ServerSocket silent = new ServerSocket(0, 50, loopback())) { // accepts, never answers the handshake
            InetSocketAddress peer = new InetSocketAddress(loopback(), silent.getLocalPort());
            List<CompletableFuture<String>> queued = new ArrayList<>();
            for (int i = 0; i < 8; i++) queued.add(a.request(peer, UPPER, "q" + i, TIMEOUT));
            CompletableFuture<String> ninth = a.request(peer, UPPER, "q8", TIMEOUT);
            assertThat(reason(ninth)).isEqualTo(Reason.OVERLOADED);
            assertThat(failure(ninth)).hasMessageContaining("outboundQueueMessagesMax");
            for (CompletableFuture<String> request : queued) assertThat(reason(request)).isEqualTo(Reason.UNREACHABLE);
        }
    }

    @Test
    void fullHandlerQueueAnswersOverloaded() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        NettyMessaging b = start(MessagingOptions.builder("c", UUID.randomUUID(), new InetSocketAddress(loopback(), 0))
                .handlerThreads(1).handlerQueueMax(1));
        Verb<String, String> blocking = new Verb<>(110, "BLOCKING", STRING, STRING);
        b.handle(blocking, (request, from) -> {
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return CompletableFuture.completedFuture(request);
        });
        NettyMessaging a = start();
        List<CompletableFuture<String>> replies = new ArrayList<>();
        for (int i = 0; i < 5; i++) replies.add(a.request(b.localAddress(), blocking, "b" + i, TIMEOUT));
        CompletableFuture<String> last = replies.get(4);
        assertThat(reason(last)).isEqualTo(Reason.OVERLOADED);
        assertThat(failure(last)).hasMessageContaining("handlerQueueMax");
        release.countDown();
        assertThat(replies.get(0).get(5, TimeUnit.SECONDS)).isEqualTo("b0");
    }

    @Test
    void closeFailsPendingRequests() {
        NettyMessaging a = start();
        NettyMessaging b = start();
        CompletableFuture<String> pending = a.request(b.localAddress(), NEVER, "x", Duration.ofSeconds(30));
        a.close();
        assertThat(reason(pending)).isEqualTo(Reason.UNREACHABLE);
        assertThat(reason(a.request(b.localAddress(), UPPER, "x", TIMEOUT))).isEqualTo(Reason.UNREACHABLE);
    }

    // ---------------------------------------------------------------- helpers

    private record Frame(byte type, ByteBuf body) {}

    /** Sends a HELLO from a raw socket and reads the answer frame. */
    private static Frame handshake(InetSocketAddress peer, WireFormat.Hello hello) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(peer, 1000);
            socket.setSoTimeout(3000);
            ByteBuf frame = WireFormat.hello(UnpooledByteBufAllocator.DEFAULT, hello);
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            frame.release();
            socket.getOutputStream().write(bytes);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            ByteBuf buffer = io.netty.buffer.Unpooled.wrappedBuffer(body);
            return new Frame(buffer.readByte(), buffer);
        }
    }

    private static Throwable failure(CompletableFuture<?> future) {
        try {
            future.get(10, TimeUnit.SECONDS);
            throw new AssertionError("completed normally");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("did not fail within 10 s", e);
        }
    }

    private static Reason reason(CompletableFuture<?> future) {
        Throwable failure = failure(future);
        assertThat(failure).isInstanceOf(MessagingException.class);
        return ((MessagingException) failure).reason();
    }

    private static InetSocketAddress freeAddress() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, loopback())) {
            return new InetSocketAddress(loopback(), socket.getLocalPort());
        }
    }

    private static InetAddress loopback() {
        return InetAddress.getLoopbackAddress();
    }
}

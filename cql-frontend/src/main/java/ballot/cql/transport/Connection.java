package ballot.cql.transport;

import ballot.cql.ResultMemory;
import ballot.cql.error.CqlException;
import ballot.cql.error.ErrorCode;
import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.BodyCompressor;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.ProtocolViolation;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.message.AuthChallenge;
import ballot.cql.protocol.message.AuthResponse;
import ballot.cql.protocol.message.AuthSuccess;
import ballot.cql.protocol.message.Authenticate;
import ballot.cql.protocol.message.ErrorResponse;
import ballot.cql.protocol.message.Event;
import ballot.cql.protocol.message.EventType;
import ballot.cql.protocol.message.Prepared;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.Ready;
import ballot.cql.protocol.message.Register;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.RequestCodec;
import ballot.cql.protocol.message.Response;
import ballot.cql.protocol.message.ResponseCodec;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.Startup;
import ballot.cql.protocol.message.Supported;
import ballot.cql.protocol.message.WithWarnings;
import ballot.cql.trace.TraceSession;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: the STARTUP handshake, authentication, REGISTER, and dispatch of statements to the
 * {@link RequestHandler}. All state is confined to the channel's event loop (what {@link #describe} reads is volatile);
 * completions and events from other threads hop onto it.
 *
 * <pre>
 * AWAITING_STARTUP --STARTUP--> READY, or AUTHENTICATING --AUTH_RESPONSE...--> READY
 * any state --protocol violation--> CLOSING (error sent on the offending stream, then the channel closes)
 * </pre>
 *
 * Invariants: at most {@code inFlightRequestsMax} requests are with the handler at once, the rest wait in
 * {@code pending}; the channel reads only while nothing waits, a slot is free and the channel is writable.
 * Before STARTUP any supported version may be used and is answered in kind; after it, every envelope must carry
 * the version STARTUP chose.
 */
final class Connection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(Connection.class);
    private static final java.lang.invoke.VarHandle REQUESTS;

    static {
        try {
            REQUESTS = java.lang.invoke.MethodHandles.lookup().findVarHandle(Connection.class, "requests", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private enum State { AWAITING_STARTUP, AUTHENTICATING, READY, CLOSING }

    /**
     * Smaller responses (write acknowledgements, single rows) are not charged: they would cost every response two
     * updates of the node-wide counter, and what they leave uncounted is bounded, since the connection stops reading
     * once its socket is not writable: about {@code inFlightRequestsMax} of them, 4 MiB.
     */
    static final int CHARGED_RESPONSE_BYTES_MIN = 4096;

    private final CqlServerOptions options;
    private final RequestHandler handler;
    private final EventBroadcaster events;
    private final InboundFraming inbound;
    private final OutboundFraming outbound;
    private final ArrayDeque<Envelope> pending = new ArrayDeque<>();
    /**
     * Responses of at least {@link #CHARGED_RESPONSE_BYTES_MIN}, encoded and not yet written, are charged here until
     * the socket takes them.
     */
    private final ResultMemory.Account memory;

    private ChannelHandlerContext ctx;
    /** Written on the event loop; volatile (like {@link #client}) for {@link #describe}. */
    private volatile State state = State.AWAITING_STARTUP;
    private volatile ClientState client;
    /**
     * Envelopes received. Only the event loop writes it, with an opaque store ({@link #REQUESTS}): {@link #describe}
     * reads a recent count on another thread without a fence on every request.
     */
    private long requests;
    private Authenticator.SaslNegotiator negotiator;
    /** True while the negotiator evaluates an AUTH_RESPONSE (off the event loop). */
    private boolean evaluating;
    /** Read by event publishers on other threads; replaced, never mutated. */
    private volatile Set<EventType> registered = Set.of();
    private int inFlight;
    private boolean draining;

    Connection(CqlServerOptions options, RequestHandler handler, EventBroadcaster events, InboundFraming inbound,
               OutboundFraming outbound) {
        this.options = options;
        this.handler = handler;
        this.events = events;
        this.inbound = inbound;
        this.outbound = outbound;
        this.memory = options.resultMemory().account();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The connection as {@code system_views.clients} shows it; any thread may call this. */
    ConnectedClient describe(Channel channel, boolean authenticates) {
        ClientState started = client;
        State now = state;
        String stage = switch (now) {
            case AWAITING_STARTUP -> "established";
            case AUTHENTICATING -> "authenticating";
            case READY -> "ready";
            case CLOSING -> "closed";
        };
        SSLSession tls = null;
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        if (ssl != null && ssl.handshakeFuture().isSuccess()) tls = ssl.engine().getSession();
        InetSocketAddress address = (InetSocketAddress) channel.remoteAddress();
        long received = (long) REQUESTS.getOpaque(this);
        String tlsProtocol = tls == null ? null : tls.getProtocol();
        String cipher = tls == null ? null : tls.getCipherSuite();
        if (started == null) return new ConnectedClient(address, stage, null, 0, null, null, null, null, received, tlsProtocol, cipher);
        String username = started.role() != null ? started.role() : authenticates ? null : ConnectedClient.ANONYMOUS;
        return new ConnectedClient(address, stage, username, started.protocolVersion().code(), started.startupOptions(),
                started.driverName(), started.driverVersion(), started.keyspace(), received, tlsProtocol, cipher);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ProtocolViolation violation) {
            onViolation(violation);
        } else if (msg instanceof Envelope envelope) {
            if (state == State.CLOSING) envelope.release();
            else onEnvelope(envelope);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onEnvelope(Envelope envelope) {
        options.observer().received(envelope.opcode());
        REQUESTS.setOpaque(this, requests + 1); // one writer: the event loop
        if (client != null && envelope.version() != client.protocolVersion()) {
            envelope.release();
            failConnection(envelope.streamId(), "Invalid message version. Got " + envelope.version().label()
                    + " but previous messages on this connection had version " + client.protocolVersion().label());
            return;
        }
        switch (envelope.opcode()) {
            case OPTIONS:
                envelope.release();
                reply(new Supported(options.supportedOptions()), envelope.streamId(), envelope.version());
                return;
            case STARTUP:
                onStartup(envelope);
                return;
            case AUTH_RESPONSE:
                onAuthResponse(envelope);
                return;
            default:
                if (!isReadyFor(envelope)) return;
                if (envelope.opcode() == Opcode.REGISTER) onRegister(envelope);
                else onStatement(envelope);
        }
    }

    /** Answers (and releases) requests that come before the handshake is done. */
    private boolean isReadyFor(Envelope envelope) {
        if (state == State.READY) return true;
        envelope.release();
        if (state == State.AWAITING_STARTUP)
            reply(ErrorResponse.protocolError("Unexpected message " + envelope.opcode() + ", expecting STARTUP or OPTIONS"),
                    envelope.streamId(), envelope.version());
        else
            reply(new ErrorResponse(ErrorCode.UNAUTHORIZED, "You have not logged in"), envelope.streamId(), envelope.version());
        return false;
    }

    private void onStartup(Envelope envelope) {
        int stream = envelope.streamId();
        ProtocolVersion version = envelope.version();
        if (state != State.AWAITING_STARTUP) {
            envelope.release();
            reply(ErrorResponse.protocolError("Unexpected message STARTUP, the connection is already started"), stream, version);
            return;
        }
        Startup startup = (Startup) decodeOrFail(envelope);
        if (startup == null) return;
        String compression;
        try {
            checkCqlVersion(startup.options().get(Startup.CQL_VERSION));
            compression = compression(startup.options().get(Startup.COMPRESSION), version);
        } catch (ProtocolException e) {
            reply(ErrorResponse.from(e), stream, version);
            return;
        }
        ClientState started = new ClientState(version, ctx.channel().remoteAddress(), startup.options(), compression,
                ProtocolExtension.requestedIn(startup.options()), memory);
        Authenticator authenticator = options.authenticator();
        if (authenticator.requiresAuthentication()) {
            try {
                negotiator = authenticator.newNegotiator(started);
            } catch (RuntimeException e) {
                reply(errorFor(e, stream, startup), stream, version);
                return;
            }
            client = started;
            state = State.AUTHENTICATING;
            reply(new Authenticate(authenticator.className()), stream, version);
        } else {
            client = started;
            state = State.READY;
            reply(new Ready(), stream, version);
        }
        // The answer to STARTUP is already encoded (writes from the event loop encode synchronously): it went out
        // unframed and uncompressed, and everything after it changes framing, on both sides (spec v5 §2.3.1).
        if (version.usesSegments()) {
            SegmentCodec codec = compression != null ? SegmentCodec.lz4() : SegmentCodec.uncompressed();
            outbound.useSegments(codec);
            inbound.useSegments(codec);
        } else if (compression != null) {
            BodyCompressor bodies = BodyCompressor.named(compression);
            outbound.compressBodiesWith(bodies);
            inbound.decompressBodiesWith(bodies);
        }
        log.debug("client started remote={} version={} compression={} driver={} {} lwtMark={}", client.remoteAddress(),
                version.code(), compression, client.driverName(), client.driverVersion(),
                client.uses(ProtocolExtension.LWT_ADD_METADATA_MARK));
    }

    private static void checkCqlVersion(String cqlVersion) {
        if (cqlVersion == null) throw new ProtocolException("Missing value CQL_VERSION in STARTUP message");
        int major;
        try {
            major = Integer.parseInt(cqlVersion.split("\\.", 2)[0].trim());
        } catch (NumberFormatException e) {
            throw new ProtocolException("Invalid CQL_VERSION '" + cqlVersion + "' in STARTUP message; expected 3.x.y");
        }
        if (major < 3)
            throw new ProtocolException("CQL version " + cqlVersion
                    + " is not supported by the binary protocol (supported version are >= 3.0.0)");
        if (major > 3) throw new ProtocolException("CQL version " + cqlVersion + " is not supported; this node speaks CQL 3");
    }

    /** @return "lz4", "snappy" (v4 and earlier), or null for no compression */
    private static String compression(String requested, ProtocolVersion version) {
        if (requested == null || requested.isEmpty()) return null;
        String name = requested.toLowerCase(Locale.ROOT);
        if (name.equals("lz4")) return name;
        if (name.equals("snappy")) {
            if (BodyCompressor.named(name) == null) throw new ProtocolException("This instance does not support Snappy compression");
            if (version.usesSegments()) throw new ProtocolException("Snappy compression is not supported in protocol V" + version.code());
            return name;
        }
        throw new ProtocolException("Unknown compression algorithm: " + requested);
    }

    private void onAuthResponse(Envelope envelope) {
        int stream = envelope.streamId();
        ProtocolVersion version = envelope.version();
        if (state != State.AUTHENTICATING) {
            envelope.release();
            reply(ErrorResponse.protocolError("Unexpected message AUTH_RESPONSE, no authentication is in progress"),
                    stream, version);
            return;
        }
        AuthResponse response = (AuthResponse) decodeOrFail(envelope);
        if (response == null) return;
        if (evaluating) {
            failConnection(stream, "Unexpected message AUTH_RESPONSE, the previous one is still being evaluated");
            return;
        }
        evaluating = true;
        CompletionStage<ByteBuffer> evaluated;
        try {
            evaluated = negotiator.evaluateResponse(response.token());
        } catch (RuntimeException e) {
            evaluated = CompletableFuture.failedFuture(e);
        }
        evaluated.whenComplete((token, failure) -> {
            if (ctx.executor().inEventLoop()) onAuthEvaluated(token, failure, stream, version, response);
            else ctx.executor().execute(() -> onAuthEvaluated(token, failure, stream, version, response));
        });
    }

    private void onAuthEvaluated(ByteBuffer token, Throwable failure, int stream, ProtocolVersion version, AuthResponse response) {
        evaluating = false;
        if (state != State.AUTHENTICATING) return; // closed meanwhile
        if (failure != null) {
            reply(errorFor(failure, stream, response), stream, version);
        } else if (negotiator.isComplete()) {
            client.loggedIn(negotiator.role());
            negotiator = null;
            state = State.READY;
            reply(new AuthSuccess(token), stream, version);
        } else {
            reply(new AuthChallenge(token), stream, version);
        }
    }

    private void onRegister(Envelope envelope) {
        Register register = (Register) decodeOrFail(envelope);
        if (register == null) return;
        Set<EventType> types = EnumSet.noneOf(EventType.class);
        types.addAll(registered);
        types.addAll(register.eventTypes());
        registered = Set.copyOf(types);
        if (!types.isEmpty()) events.subscribe(this);
        reply(new Ready(), envelope.streamId(), client.protocolVersion());
    }

    /** Called by {@link EventBroadcaster} from any thread. */
    void sendIfRegistered(Event event) {
        if (!registered.contains(event.type())) return;
        Runnable send = () -> {
            if (state == State.READY && ctx.channel().isActive()) reply(event, -1, client.protocolVersion());
        };
        if (ctx.executor().inEventLoop()) send.run();
        else ctx.executor().execute(send);
    }

    private void onStatement(Envelope envelope) {
        if (inFlight >= options.inFlightRequestsMax() || !pending.isEmpty()) {
            pending.add(envelope);
            updateAutoRead();
            return;
        }
        start(envelope);
    }

    private void start(Envelope envelope) {
        int stream = envelope.streamId();
        boolean tracingRequested = envelope.hasFlag(Envelope.FLAG_TRACING);
        Map<String, ByteBuffer> payload = customPayload(envelope);
        Request request = decodeOrFail(envelope);
        if (request == null) return;
        inFlight++;
        TraceSession trace = options.tracer().newSession(client.remoteAddress(), tracingRequested);
        CompletionStage<? extends Response> stage;
        try {
            stage = handler.handle(request, client, trace, payload);
            if (stage == null) throw new NullPointerException("RequestHandler returned null for " + envelope.opcode());
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            stage = CompletableFuture.failedFuture(t);
        }
        // handle, not whenComplete: whenComplete's own stage would wrap a failure in a CompletionException, whose stack
        // trace is filled in, for nothing; under overload most answers are refusals (docs/admission.md).
        stage.handle((response, failure) -> {
            if (ctx.executor().inEventLoop()) complete(stream, request, trace, response, failure);
            else ctx.executor().execute(() -> complete(stream, request, trace, response, failure));
            return null;
        });
    }

    /**
     * Answers a statement. The answer to one whose client asked for the trace carries its tracing id, errors included;
     * a sampled one's does not (as in Cassandra): the client finds it in system_traces.
     */
    private void complete(int stream, Request request, TraceSession trace, Response response, Throwable failure) {
        inFlight--;
        if (trace != null) trace.finish();
        if (state != State.CLOSING) {
            Response answer = failure == null ? skipMetadataIfAsked(request, withoutLwtUnlessNegotiated(response))
                    : errorFor(failure, stream, request);
            reply(answer, trace != null && trace.requested() ? trace.id() : null, stream, client.protocolVersion());
        }
        drainPending();
    }

    private void drainPending() {
        if (draining) return;
        draining = true;
        try {
            while (state != State.CLOSING && inFlight < options.inFlightRequestsMax() && !pending.isEmpty())
                start(pending.poll());
        } finally {
            draining = false;
        }
        updateAutoRead();
    }

    /**
     * Drops the column specs of a QUERY's rows if the client asked. An EXECUTE's rows come with their metadata decided
     * by the handler, which knows the metadata the statement was prepared with (Cassandra's rules differ for it).
     */
    private static Response skipMetadataIfAsked(Request request, Response response) {
        if (!(request instanceof Query q) || !q.options().skipMetadata()) return response;
        if (response instanceof Rows rows)
            return new Rows(rows.metadata().withoutColumnSpecsUnlessChanged(), rows.rows());
        if (response instanceof WithWarnings w && w.response() instanceof Rows rows)
            return new Rows(rows.metadata().withoutColumnSpecsUnlessChanged(), rows.rows()).withWarnings(w.warnings());
        return response;
    }

    /** Keeps ScyllaDB's LWT mark in PREPARED only for a client that asked for it: others get Cassandra's bytes. */
    private Response withoutLwtUnlessNegotiated(Response response) {
        if (client.uses(ProtocolExtension.LWT_ADD_METADATA_MARK)) return response;
        if (response instanceof WithWarnings w) return withoutLwt(w.response()).withWarnings(w.warnings());
        return withoutLwt(response);
    }

    private static Response withoutLwt(Response response) {
        if (!(response instanceof Prepared p) || !p.variables().lwt()) return response;
        return new Prepared(p.statementId(), p.resultMetadataId(), p.variables().withoutLwt(), p.resultMetadata());
    }

    private ErrorResponse errorFor(Throwable failure, int stream, Request request) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null)
            cause = cause.getCause();
        if (cause instanceof CqlException e) {
            log.debug("request failed client={} stream={} code={} message={}", client, stream, e.code(), e.getMessage());
            return ErrorResponse.from(e);
        }
        log.error("request failed unexpectedly client={} stream={} request={}", client, stream, abbreviate(request), cause);
        return ErrorResponse.serverError(cause);
    }

    /** Messages can be megabytes long; logs get their start. */
    private static String abbreviate(Object message) {
        String text = String.valueOf(message);
        return text.length() <= 500 ? text : text.substring(0, 500) + "...";
    }

    /** Decodes and releases the envelope; on a malformed body, fails the connection and returns null. */
    /** The request's custom payload; empty when it has none, or a malformed one that {@link #decodeOrFail} refuses. */
    private static Map<String, ByteBuffer> customPayload(Envelope envelope) {
        try {
            return RequestCodec.customPayload(envelope);
        } catch (ProtocolException e) {
            return Map.of();
        }
    }

    private Request decodeOrFail(Envelope envelope) {
        try {
            return RequestCodec.decode(envelope);
        } catch (ProtocolException e) {
            failConnection(envelope.streamId(), e.getMessage());
            return null;
        } finally {
            envelope.release();
        }
    }

    private void reply(Response response, int stream, ProtocolVersion version) {
        reply(response, null, stream, version);
    }

    private void reply(Response response, UUID tracingId, int stream, ProtocolVersion version) {
        if (response instanceof ErrorResponse error) options.observer().errorSent(error.code());
        Envelope envelope;
        try {
            envelope = ResponseCodec.encode(response, tracingId, stream, version, ctx.alloc());
        } catch (RuntimeException e) {
            log.error("could not encode response client={} stream={} response={}", client, stream, abbreviate(response), e);
            envelope = ResponseCodec.encode(ErrorResponse.serverError(e), stream, version, ctx.alloc());
        }
        long bytes = Envelope.HEADER_BYTES + envelope.body().readableBytes();
        if (bytes < CHARGED_RESPONSE_BYTES_MIN) {
            ctx.writeAndFlush(envelope).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
            return;
        }
        memory.charge(bytes);
        ctx.writeAndFlush(envelope).addListener(written -> {
            memory.release(bytes);
            if (!written.isSuccess()) ctx.channel().pipeline().fireExceptionCaught(written.cause());
        });
    }

    private void onViolation(ProtocolViolation violation) {
        if (violation.obsoleteVersion() == 0) {
            failConnection(violation.streamId(), violation.message());
            return;
        }
        log.debug("protocol violation remote={} version={} message={}", ctx.channel().remoteAddress(),
                violation.obsoleteVersion(), violation.message());
        state = State.CLOSING;
        options.observer().errorSent(ErrorCode.PROTOCOL_ERROR);
        Envelope error = ResponseCodec.encode(ErrorResponse.protocolError(violation.message()), violation.streamId(),
                ProtocolVersion.V3, ctx.alloc());
        try {
            ByteBuf frame = ctx.alloc().buffer(8 + error.body().readableBytes());
            EnvelopeEncoder.writeObsoleteResponseHeader(violation.obsoleteVersion(), violation.streamId(), Opcode.ERROR,
                    error.body().readableBytes(), frame);
            frame.writeBytes(error.body());
            ctx.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE);
        } finally {
            error.release();
        }
        closing();
    }

    /**
     * Sends PROTOCOL_ERROR on {@code stream} and closes this connection once it is written: after a malformed
     * message, nothing more on the connection can be trusted. Other connections are unaffected.
     */
    private void failConnection(int stream, String message) {
        if (state == State.CLOSING) return;
        log.debug("protocol violation remote={} stream={} message={}", ctx.channel().remoteAddress(), stream, message);
        ProtocolVersion version = client != null ? client.protocolVersion() : ProtocolVersion.CURRENT;
        options.observer().errorSent(ErrorCode.PROTOCOL_ERROR);
        Envelope envelope = ResponseCodec.encode(ErrorResponse.protocolError(message), stream, version, ctx.alloc());
        ctx.writeAndFlush(envelope).addListener(ChannelFutureListener.CLOSE);
        closing();
    }

    private void closing() {
        state = State.CLOSING;
        memory.close();
        events.unsubscribe(this);
        Envelope waiting;
        while ((waiting = pending.poll()) != null) waiting.release();
    }

    private void updateAutoRead() {
        boolean read = state != State.CLOSING && pending.isEmpty() && inFlight < options.inFlightRequestsMax()
                && ctx.channel().isWritable();
        ChannelConfig config = ctx.channel().config();
        if (config.isAutoRead() != read) config.setAutoRead(read);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing();
        log.debug("client disconnected remote={}", ctx.channel().remoteAddress());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A failed TLS handshake arrives as a DecoderException; TlsHandshakes has logged it.
        if (cause instanceof IOException || cause.getCause() instanceof javax.net.ssl.SSLException)
            log.debug("connection error remote={} error={}", ctx.channel().remoteAddress(), cause.toString());
        else
            log.warn("unexpected error on connection remote={}; closing it", ctx.channel().remoteAddress(), cause);
        closing();
        ctx.close();
    }
}

package ballot.metrics;

import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.Opcode;
import ballot.cql.transport.CqlServer;
import ballot.cql.transport.RequestObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * The native-protocol server's meters: requests by opcode, errors sent by code, open connections. Every counter is
 * registered up front, so a request costs an array lookup and an increment on the event loop, and a dashboard sees
 * zeros rather than missing series.
 */
public final class CqlMetrics implements RequestObserver {
    private final MeterRegistry registry;
    private final Map<Opcode, Counter> requests = new EnumMap<>(Opcode.class);
    private final Map<ErrorCode, Counter> errors = new EnumMap<>(ErrorCode.class);

    public CqlMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Opcode opcode : Opcode.values()) {
            if (!opcode.isRequest()) continue;
            requests.put(opcode, Counter.builder("ballot.cql.requests").tag("opcode", opcode.name())
                    .description("Request envelopes received from clients, by opcode").register(registry));
        }
        for (ErrorCode code : ErrorCode.values()) {
            errors.put(code, Counter.builder("ballot.cql.errors").tag("code", code.name())
                    .description("ERROR responses sent to clients, by error code").register(registry));
        }
    }

    /** Registers the open-connections gauge of {@code server}. */
    public void connections(CqlServer server) {
        Gauge.builder("ballot.cql.connections", server, CqlServer::connections).strongReference(true)
                .description("Client connections open now").register(registry);
    }

    @Override
    public void received(Opcode opcode) {
        Counter counter = requests.get(opcode);
        if (counter != null) counter.increment(); // a response opcode sent by a confused client is not a request
    }

    @Override
    public void errorSent(ErrorCode code) {
        errors.get(code).increment();
    }
}

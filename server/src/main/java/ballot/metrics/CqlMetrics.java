package ballot.metrics;

import ballot.cql.ResultMemory;
import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.Opcode;
import ballot.cql.transport.CqlServer;
import ballot.cql.transport.RequestObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
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

    /** Registers the gauges and counter of the node's result memory. */
    public void resultMemory(ResultMemory memory) {
        Gauge.builder("ballot.cql.result.memory", memory, ResultMemory::bytes).baseUnit("bytes").strongReference(true)
                .description("Bytes of query results held for clients: rows being gathered, responses not yet written").register(registry);
        Gauge.builder("ballot.cql.result.memory.max", memory, ResultMemory::nodeBytesMax).baseUnit("bytes").strongReference(true)
                .description("The most bytes of query results the node holds at once").register(registry);
        FunctionCounter.builder("ballot.cql.result.memory.refusals", memory, ResultMemory::refusals)
                .description("Queries refused because their rows did not fit in the result memory").register(registry);
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

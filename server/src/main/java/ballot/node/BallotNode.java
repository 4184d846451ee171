package ballot.node;

import ballot.cql.describe.DescribeStatements;
import ballot.cql.describe.TokenRing;
import ballot.cql.execute.QueryProcessor;
import ballot.cql.protocol.message.SchemaChangeEvent;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.transport.CqlServer;
import ballot.cql.transport.CqlServerOptions;
import ballot.replication.LocalCoordinator;
import ballot.schema.LocalSchema;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.storage.WriteId;
import ballot.system.LocalNode;
import ballot.system.SystemKeyspaces;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Ballot node: the composition root. Opens storage, loads the schema, and serves CQL until stopped. */
public final class BallotNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BallotNode.class);

    private final StorageEngine storage;
    private final ExecutorService requests;
    private final CqlServer server;
    private final LocalNode identity;
    private final InetSocketAddress address;

    private BallotNode(NodeConfig config) {
        config.validate();
        Path dataDirectory = Path.of(config.dataDirectory).toAbsolutePath();
        storage = StorageEngine.open(new StorageOptions(dataDirectory.resolve("db"), config.commitlogSync.equals("batch"),
                config.commitlogSyncPeriodMillis, config.blockCacheMb << 20, config.sweepPeriodSeconds));
        try {
            identity = identity(config);
            ServerClock clock = new ServerClock(System::currentTimeMillis);
            LocalSchema schema = new LocalSchema(storage, clock::nextMicros);
            SystemKeyspaces system = new SystemKeyspaces(identity, schema::schema);
            schema.load(system.keyspaces());
            LocalCoordinator coordinator = new LocalCoordinator(storage, system, schema::schema, new WriteId(identity.generation()), clock::nextMicros,
                    identity.hostId());
            QueryEnvironment environment = new QueryEnvironment(coordinator, schema, clock::nextMicros, System::currentTimeMillis,
                    new QueryEnvironment.NodeInfo(config.clusterName, LocalNode.PARTITIONER, config.dataCenter));
            Preparer preparer = new Preparer(environment, new DescribeStatements(TokenRing.singleNode(identity.tokens(), identity.address(), identity.storagePort())));
            requests = requestExecutor(config.requestThreads);
            QueryProcessor processor = new QueryProcessor(environment, preparer, requests, config.preparedStatementsCacheEntries);
            server = new CqlServer(CqlServerOptions.builder()
                    .bindAddress(InetAddress.getByName(config.nativeTransportAddress))
                    .port(config.nativeTransportPort)
                    .frameBytesMax(config.frameSizeMb << 20)
                    .cqlVersion(LocalNode.CQL_VERSION)
                    .build(), processor);
            schema.onChange(change -> server.events().publish(new SchemaChangeEvent(change)));
            address = server.start();
        } catch (RuntimeException | UnknownHostException e) {
            storage.close();
            if (e instanceof UnknownHostException u) throw new IllegalArgumentException("unknown native_transport_address: " + u.getMessage(), u);
            throw (RuntimeException) e;
        }
        log.info("Ballot node started cluster={} host_id={} cql={}:{} data={}", config.clusterName, identity.hostId(),
                address.getAddress().getHostAddress(), address.getPort(), dataDirectory);
    }

    public static BallotNode start(NodeConfig config) {
        return new BallotNode(config);
    }

    public InetSocketAddress address() {
        return address;
    }

    public LocalNode identity() {
        return identity;
    }

    /** Host id and tokens are made once and kept; the generation grows at every start. */
    private LocalNode identity(NodeConfig config) throws UnknownHostException {
        byte[] hostIdBytes = storage.getMeta("local/host_id");
        UUID hostId;
        if (hostIdBytes == null) {
            hostId = UUID.randomUUID();
            storage.putMeta("local/host_id", hostId.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } else {
            hostId = UUID.fromString(new String(hostIdBytes, java.nio.charset.StandardCharsets.UTF_8));
        }
        byte[] generationBytes = storage.getMeta("local/generation");
        int generation = Math.max(generationBytes == null ? 0 : ByteBuffer.wrap(generationBytes).getInt() + 1,
                (int) (System.currentTimeMillis() / 1000));
        storage.putMeta("local/generation", ByteBuffer.allocate(4).putInt(0, generation).array());
        byte[] tokenBytes = storage.getMeta("local/tokens");
        List<Long> tokens = new ArrayList<>();
        if (tokenBytes == null) {
            SecureRandom random = new SecureRandom();
            ByteBuffer out = ByteBuffer.allocate(8 * config.numTokens);
            for (int i = 0; i < config.numTokens; i++) {
                long token = random.nextLong();
                if (token == Long.MIN_VALUE) token++;
                tokens.add(token);
                out.putLong(token);
            }
            storage.putMeta("local/tokens", out.array());
        } else {
            ByteBuffer in = ByteBuffer.wrap(tokenBytes);
            while (in.hasRemaining()) tokens.add(in.getLong());
        }
        InetAddress listen = InetAddress.getByName(config.listenAddress);
        InetAddress rpc = InetAddress.getByName(config.nativeTransportAddress);
        return new LocalNode(config.clusterName, hostId, listen, config.storagePort, rpc, config.nativeTransportPort,
                config.dataCenter, config.rack, List.copyOf(tokens), generation);
    }

    private static ExecutorService requestExecutor(int threads) {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "request-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void close() {
        log.info("Ballot node stopping");
        server.stop();
        requests.shutdown();
        try {
            if (!requests.awaitTermination(10, TimeUnit.SECONDS)) requests.shutdownNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        storage.close();
        log.info("Ballot node stopped");
    }
}

package ballot.node;

import ballot.cluster.Cluster;
import ballot.cluster.ClusterOptions;
import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.console.ConsoleEndpoint;
import ballot.cql.ResultMemory;
import ballot.cql.auth.Authorization;
import ballot.cql.auth.DefaultSuperuser;
import ballot.cql.auth.PasswordAuthenticator;
import ballot.cql.auth.PermissionStore;
import ballot.cql.auth.RoleStore;
import ballot.cql.describe.DescribeStatements;
import ballot.cql.describe.TokenRing;
import ballot.cql.execute.QueryProcessor;
import ballot.cql.execute.TraceWriter;
import ballot.cql.protocol.message.SchemaChangeEvent;
import ballot.cql.protocol.message.StatusChange;
import ballot.cql.protocol.message.TopologyChange;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.trace.Tracer;
import ballot.cql.transport.Authenticator;
import ballot.cql.transport.CqlServer;
import ballot.cql.transport.CqlServerOptions;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.RequestAdmission;
import ballot.metrics.AdminChanges;
import ballot.metrics.CqlMetrics;
import ballot.metrics.MetricsServer;
import ballot.metrics.NodeMetrics;
import ballot.metrics.TableMeters;
import ballot.lwt.PaxosEngine;
import ballot.net.InternodeTls;
import ballot.transactions.TransactionHost;
import ballot.transactions.TransactionalLwt;
import ballot.transactions.TransactionalReads;
import ballot.cql.statement.Participants;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.schema.TableMetadata;
import ballot.lwt.SystemPaxosRows;
import ballot.replication.ReplicatedCoordinator;
import ballot.replication.Replication;
import ballot.schema.LocalSchema;
import ballot.schema.SchemaSync;
import ballot.storage.Snapshots;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.storage.WriteId;
import ballot.system.LocalNode;
import ballot.system.SystemKeyspaces;
import ballot.tls.TlsContexts;
import ballot.tracing.TraceProbabilityEndpoint;
import ballot.tracing.TracingMessaging;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Ballot node: the composition root. Opens storage, starts the metrics endpoint, loads the schema, joins the
 * cluster (a cluster of one without seeds), and serves CQL until stopped. The node's one meter registry is made here
 * and handed to every part that records into it.
 */
public final class BallotNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BallotNode.class);
    /** Finished trace sessions waiting to be written before new ones are dropped. */
    private static final int TRACE_QUEUE_MAX = 4096;
    /** Trace sessions being written at once. */
    private static final int TRACE_WRITES_IN_FLIGHT_MAX = 64;

    private final StorageEngine storage;
    private NodeMetrics metrics;
    private MetricsServer metricsServer;
    private ConsoleEndpoint console;
    private ExecutorService requests;
    private CoordinatorAdmission admission;
    /** Requests one connection may have with the node when admission control is on: all its stream ids. */
    private static final int ADMITTED_REQUESTS_PER_CONNECTION_MAX = 32_768;
    private CqlServer server;
    /** Runs the default superuser's setup, retrying until the roles can be read and written. */
    private ScheduledExecutorService roleSetup;
    private static final long ROLE_SETUP_RETRY_MILLIS = 1000;
    private Cluster cluster;
    private Replication replication;
    private PaxosEngine paxos;
    private TransactionHost transactions;
    private final LocalNode identity;
    private InetSocketAddress address;
    private TraceWriter traces;
    /** Set once {@link #drain} has finished. */
    private volatile boolean drained;

    private BallotNode(NodeConfig config) {
        config.validate();
        // Key stores are read before storage opens: a bad TLS setting stops the node at once, naming the setting.
        SslContext clientTls = config.clientEncryption.enabled ? TlsContexts.server(config.clientEncryption, "client_encryption_options") : null;
        InternodeTls internodeTls = config.serverEncryption.enabled()
                ? new InternodeTls(TlsContexts.server(config.serverEncryption, "server_encryption_options"),
                        TlsContexts.client(config.serverEncryption, "server_encryption_options"))
                : null;
        if (clientTls != null) log.info("client TLS: {}", TlsContexts.describe(config.clientEncryption, "client_encryption_options"));
        if (internodeTls != null) log.info("internode TLS: {}", TlsContexts.describe(config.serverEncryption, "server_encryption_options"));
        Path dataDirectory = Path.of(config.dataDirectory).toAbsolutePath();
        long fdLimit = fileDescriptorLimit();
        storage = StorageEngine.open(new StorageOptions(dataDirectory.resolve("db"), config.commitlogSync.equals("batch"),
                config.commitlogSyncPeriodMillis, config.blockCacheMb << 20, config.sweepPeriodSeconds,
                fdLimit <= 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, Math.max(64, storageReserve(fdLimit) / 2))));
        try {
            if (storage.getMeta("local/host_id") == null) AbstainedTables.pending(storage); // a new node: fixed once it has joined
            metrics = new NodeMetrics();
            metrics.storage(storage::backgroundErrorCount, () -> storage.hasPendingBackgroundError() ? 1 : 0, storage::health);
            metrics.storageActivity(storage::activity);
            if (config.metricsPort != 0) metricsServer = metricsServer(config, metrics.registry());
            int nativePort = config.nativeTransportPort == 0 ? freePort(config.nativeTransportAddress) : config.nativeTransportPort;
            int storagePort = config.storagePort == 0 ? freePort(config.listenAddress) : config.storagePort;
            identity = identity(config, nativePort, storagePort);
            ServerClock clock = new ServerClock(ServerClock::systemMicros);
            LocalSchema schema = new LocalSchema(storage, clock::nextMicros);
            SystemKeyspaces system = new SystemKeyspaces(identity, schema::schema, new SystemPaxosRows(storage, schema::schema));
            schema.load(system.keyspaces(), system.storedTables());
            TableMeters tableMeters = new TableMeters(metrics.registry(), id -> storage.hasTable(id) ? storage.tableStats(id) : null);
            tableMeters.schemaInstalled(schema.schema());
            schema.onInstall(tableMeters::schemaInstalled);

            replication = new Replication(storage, schema::schema, system, new WriteId(identity.generation()), clock::nextMicros,
                    identity.hostId(), new ReplicatedCoordinator.Timeouts(Duration.ofMillis(config.writeTimeoutMillis),
                            Duration.ofMillis(config.readTimeoutMillis), Duration.ofMillis(config.rangeTimeoutMillis)),
                    metrics.registry());
            paxos = new PaxosEngine(storage, schema::schema, system::table, identity.hostId(), clock::nextMicros,
                    PaxosEngine.Options.defaults(Duration.ofMillis(config.casContentionTimeoutMillis),
                            Duration.ofSeconds(config.paxosPurgeGraceSeconds), config.admissionPartitionLwtQueueMax,
                            config.syncsPaxosVotes()), metrics.registry());
            paxos.abstainFrom(table -> true); // until the node knows which tables predate its joining
            if (config.admissionEnabled) paxos.runInBackground(java.util.Set.copyOf(config.admissionBackgroundKeyspaces));
            transactions = new TransactionHost(paxos, storage, id -> {
                TableMetadata table = schema.schema().table(id);
                if (table == null) throw new IllegalStateException("unknown table id " + id + " (dropped, or schema not yet agreed)");
                return table;
            }, ServerClock::systemMicros, TransactionHost.Options.defaults(), metrics.registry());
            storage.trackTxnStates(TransactionalReads::holdsIntent, TransactionalReads::mayAwaitSweep);
            replication.reportIntents(TransactionalReads::holdsIntent);
            cluster = Cluster.start(clusterOptions(config, internodeTls), storage, schema.schema().version(), messaging -> {
                TracingMessaging traced = new TracingMessaging(messaging);
                replication.verbs().accept(traced);
                paxos.handle(traced);
                transactions.handle(traced);
                SchemaSync.handle(messaging, schema);
            });
            Membership membership = cluster.membership();
            metrics.cluster(membership);
            ReplicatedCoordinator coordinator = replication.start(membership, new TracingMessaging(cluster.messaging()));
            paxos.start(membership, new TracingMessaging(cluster.messaging()), coordinator::replicasAvailableFor);
            system.indexStatus(storage::indexBuilt);
            system.peers(new SystemKeyspaces.Peers() {
                public Collection<NodeInfo> others() {
                    List<NodeInfo> others = new ArrayList<>();
                    for (NodeInfo n : membership.members()) if (!n.hostId().equals(identity.hostId())) others.add(n);
                    return others;
                }

                public boolean isAlive(UUID hostId) {
                    return membership.isAlive(hostId);
                }
            });
            new SchemaSync(schema, cluster.messaging(), membership, Duration.ofSeconds(10)).start();
            abstainFromTablesThatPredateTheJoin(config, schema, membership, system);

            LwtCoordinator lwt = new TransactionalLwt(paxos, transactions);
            replication.readHeldThrough(new TransactionalReads(lwt));
            QueryEnvironment environment = new QueryEnvironment(coordinator, lwt, transactions, schema, clock::nextMicros, System::currentTimeMillis,
                    new QueryEnvironment.NodeInfo(config.clusterName, LocalNode.PARTITIONER, config.dataCenter, () -> {
                        Set<String> dataCenters = new TreeSet<>(Set.of(config.dataCenter));
                        for (NodeInfo n : membership.members()) dataCenters.add(n.dataCenter());
                        return dataCenters;
                    }), new QueryEnvironment.Guardrails(config.batchSizeWarnKb * 1024, config.batchSizeFailKb * 1024));
            Preparer preparer = new Preparer(environment,
                    new DescribeStatements(TokenRing.singleNode(identity.tokens(), identity.address(), identity.storagePort())));
            transactions.coordinateOn(key -> stepCoordinator(coordinator, schema, membership, key), new TracingMessaging(cluster.messaging()),
                    Duration.ofMillis(2 * config.casContentionTimeoutMillis), source -> Participants.rebuild(environment, preparer, source));
            requests = requestExecutor(config.requestThreads);
            RequestAdmission requestAdmission = RequestAdmission.unlimited(requests);
            if (config.admissionEnabled) {
                admission = new CoordinatorAdmission(config.admissionSettings(),
                        TimeUnit.MILLISECONDS.toNanos(Math.min(config.admissionMaxWaitMillis, config.readTimeoutMillis)),
                        requests, paxos::takeLaneDelayNanos, storage::health, new java.util.HashSet<>(config.admissionBackgroundKeyspaces),
                        metrics.registry());
                requestAdmission = admission;
            }
            QueryEnvironment internalEnvironment = new QueryEnvironment(coordinator.unmetered(), lwt, transactions, schema, clock::nextMicros,
                    System::currentTimeMillis, environment.node(), environment.guardrails());
            boolean passwords = config.requiresPasswords();
            RoleStore roles = new RoleStore(internalEnvironment, passwords, Duration.ofMillis(config.rolesValidityMillis));
            Permissions permissions = config.requiresAuthorization()
                    ? new PermissionStore(internalEnvironment, Duration.ofMillis(config.permissionsValidityMillis)) : Permissions.ALLOW_ALL;
            QueryProcessor processor = new QueryProcessor(environment, preparer, requestAdmission, config.preparedStatementsCacheEntries,
                    config.commitlogSync.equals("periodic"), roles, permissions, new Authorization(roles::cached, permissions));
            schema.onInstall(processor::schemaChanged);
            system.preparedStatements(processor::preparedStatements);
            system.settings(config::settings);
            system.storageTasks(storage::tasks);
            system.tableSizes(id -> {
                if (!storage.hasTable(id)) return null;
                try {
                    StorageEngine.TableStats stats = storage.tableStats(id);
                    return new SystemKeyspaces.TableSize(stats.estimatedKeys(), stats.sstBytes() + stats.memtableBytes());
                } catch (IllegalStateException droppedMeanwhile) {
                    return null;
                }
            });
            traces = new TraceWriter(internalEnvironment, preparer, config.traceTtlSeconds, TRACE_QUEUE_MAX, TRACE_WRITES_IN_FLIGHT_MAX);
            Tracer tracer = new Tracer(identity.address(), identity.storagePort(), traces, config.traceProbability);
            metrics.traces(traces::dropped, traces::failed);
            AdminChanges adminChanges = new AdminChanges(config.adminChangesFromAnyAddress);
            if (metricsServer != null) metricsServer.route(TraceProbabilityEndpoint.PATH, new TraceProbabilityEndpoint(tracer, adminChanges));
            if (metricsServer != null) console = ConsoleEndpoint.start(metrics.registry(), identity, membership, metricsServer);
            CqlMetrics cqlMetrics = new CqlMetrics(metrics.registry());
            ResultMemory resultMemory = resultMemory(config);
            cqlMetrics.resultMemory(resultMemory);
            CqlServerOptions.Builder serverOptions = CqlServerOptions.builder();
            if (clientTls != null) serverOptions.tls(clientTls, config.clientEncryption.optional);
            server = new CqlServer(serverOptions
                    .bindAddress(InetAddress.getByName(config.nativeTransportAddress))
                    .port(nativePort)
                    .frameBytesMax(config.frameSizeMb << 20)
                    // With admission, a connection reads every request its client sends (as many as the protocol's
                    // stream ids): the admission queue bounds what waits, and refuses early what cannot be served.
                    // Without it, past 1,024 requests a connection stops reading (back-pressure through TCP).
                    .inFlightRequestsMax(config.admissionEnabled ? ADMITTED_REQUESTS_PER_CONNECTION_MAX : 1024)
                    .connectionsMax(connectionsMax(config), config.maxConnectionsPerIp)
                    .resultMemory(resultMemory)
                    .partialFrames(config.partialFrameDataMb > 0 ? (long) config.partialFrameDataMb << 20
                            : CqlServerOptions.defaultPartialFrameBytesMax(), Duration.ofMillis(config.frameAssemblyTimeoutMillis))
                    .cqlVersion(LocalNode.CQL_VERSION)
                    .observer(cqlMetrics)
                    .tracer(tracer)
                    .authenticator(passwords ? new PasswordAuthenticator(roles, requests) : Authenticator.NONE)
                    .build(), processor);
            cqlMetrics.connections(server);
            system.clients(server::clients);
            if (metricsServer != null) metricsServer.route(AdminEndpoint.PATH, new AdminEndpoint(identity, schema::schema, storage,
                    new Snapshots(dataDirectory.resolve("snapshots"), storage), metrics.registry(), adminState(), adminChanges));
            schema.onChange(change -> server.events().publish(new SchemaChangeEvent(change)));
            membership.listen(clientEvents());
            address = server.start();
            roleSetup = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "role-setup");
                t.setDaemon(true);
                return t;
            });
            new DefaultSuperuser(roles, roleSetup, ROLE_SETUP_RETRY_MILLIS, passwords).start();
        } catch (RuntimeException | UnknownHostException e) {
            closeQuietly();
            if (e instanceof UnknownHostException u) throw new IllegalArgumentException("unknown address in configuration: " + u.getMessage(), u);
            throw (RuntimeException) e;
        }
        log.info("Ballot node started cluster={} host_id={} cql={}:{} internode={}:{} metrics={} data={}", config.clusterName,
                identity.hostId(), address.getAddress().getHostAddress(), address.getPort(), identity.address().getHostAddress(),
                identity.storagePort(), metricsServer == null ? "off" : metricsServer.address().getPort(), dataDirectory);
    }

    /**
     * Fixes, once, the tables this node abstains from the LWT votes of (docs/paxos.md §4.14), and hands them to Paxos;
     * until then it abstains from every table. A new node that joins other nodes records what the cluster's schema
     * holds once it has it (trying again at the next start if the schema does not settle); one that founds a
     * cluster, or a node from before the record existed, records none.
     */
    private void abstainFromTablesThatPredateTheJoin(NodeConfig config, LocalSchema schema, Membership membership,
            SystemKeyspaces system) throws UnknownHostException {
        Set<UUID> abstained = AbstainedTables.recorded(storage);
        if (abstained == null) {
            InetSocketAddress self = new InetSocketAddress(identity.address(), identity.storagePort());
            boolean joinsOthers = ClusterOptions.parseSeeds(config.seeds, identity.storagePort()).stream().anyMatch(s -> !s.equals(self));
            abstained = AbstainedTables.isPending(storage) && joinsOthers
                    ? AbstainedTables.existingWhenJoined(schema::schema, membership, system.keyspaces(), Duration.ofSeconds(30))
                    : Set.of();
            if (abstained == null) return; // no agreement yet: abstain from every table, and try again at the next start
            AbstainedTables.record(storage, abstained);
        }
        paxos.abstainFrom(abstained::contains);
    }

    /**
     * Where a transaction's steps on a partition run (docs/txn.md §11.1, "Coordination"): its first live replica, or
     * null when that is this node (or the table is not known here: the steps fail here as they would there).
     */
    private static InetSocketAddress stepCoordinator(ReplicatedCoordinator coordinator, LocalSchema schema, Membership membership,
            ballot.txn.PartitionKey key) {
        TableMetadata table = schema.schema().table(java.util.UUID.fromString(key.table()));
        if (table == null) return null;
        long token = ballot.cql.data.PartitionKey.of(java.nio.ByteBuffer.wrap(key.key())).token();
        for (NodeInfo replica : coordinator.replicas(table, token)) {
            if (membership.isAlive(replica.hostId())) return replica.hostId().equals(membership.self().hostId()) ? null : replica.internode();
        }
        return null;
    }

    /** The Prometheus endpoint ({@link #metricsAddress}); a port that cannot be bound stops the node, naming the setting. */
    private static MetricsServer metricsServer(NodeConfig config, PrometheusMeterRegistry registry) throws UnknownHostException {
        InetAddress address = metricsAddress(config);
        try {
            return MetricsServer.start(registry, address, config.metricsPort, config.metricsAuthentication(), config.metricsTls());
        } catch (IllegalStateException e) {
            throw new IllegalStateException("metrics_port " + config.metricsPort + ": " + e.getMessage()
                    + "; set metrics_port to a free port, or to 0 to turn the metrics endpoint off", e);
        }
    }

    /**
     * Where the metrics port listens: metrics_address, or else the CQL address, unless that is a wildcard (0.0.0.0,
     * ::): then loopback, so that metrics, the console and the admin calls are on every interface only when asked.
     */
    static InetAddress metricsAddress(NodeConfig config) throws UnknownHostException {
        if (config.metricsAddress != null) return InetAddress.getByName(config.metricsAddress);
        InetAddress cql = InetAddress.getByName(config.nativeTransportAddress);
        if (!cql.isAnyLocalAddress()) return cql;
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        log.info("metrics endpoint on {} only: native_transport_address is {} (every interface) and metrics_address is not set; "
                + "set metrics_address to serve metrics, the console and the admin calls on another address", loopback.getHostAddress(),
                config.nativeTransportAddress);
        return loopback;
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

    /**
     * Calls {@code handler} if the node's storage stops taking writes for good (StorageEngine#onUnrecoverableError):
     * the process that runs the node ends itself ({@link Main}); a node in a test's JVM only logs it.
     */
    public void onStorageFailure(java.util.function.Consumer<String> handler) {
        storage.onUnrecoverableError(handler);
    }

    /** The result memory settings, with their defaults: a quarter of the heap, half of that per connection. */
    private static ResultMemory resultMemory(NodeConfig config) {
        ResultMemory defaults = CqlServerOptions.defaultResultMemory();
        long node = config.resultDataInFlightMb > 0 ? (long) config.resultDataInFlightMb << 20 : defaults.nodeBytesMax();
        long connection = config.resultDataPerConnectionMb > 0 ? (long) config.resultDataPerConnectionMb << 20 : node / 2;
        if (connection > node) {
            log.warn("native_transport_max_result_data_per_connection_in_mb {} exceeds the node's {} MiB for results; using the node's",
                    config.resultDataPerConnectionMb, node >> 20);
            connection = node;
        }
        return new ResultMemory(node, connection);
    }

    /** The process's file descriptor limit (ulimit -n), or -1 where the JVM cannot tell. */
    private static long fileDescriptorLimit() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /**
     * The file descriptors kept from client connections for storage files and peers: a quarter of the limit, at least
     * 1,024, at most half. RocksDB keeps at most half of them open.
     */
    private static long storageReserve(long fdLimit) {
        return Math.min(fdLimit / 2, Math.max(1024, fdLimit / 4));
    }

    /**
     * The client connections the node admits at once: the setting, or what the process's file descriptor limit leaves
     * after the {@link #storageReserve}. A setting that leaves less is warned about: connections would then starve
     * RocksDB of file descriptors, which fails every write until a restart.
     */
    private static int connectionsMax(NodeConfig config) {
        long fdLimit = fileDescriptorLimit();
        if (fdLimit <= 0) return config.maxConnections;
        long reserve = storageReserve(fdLimit);
        long fit = Math.max(16, fdLimit - reserve);
        if (config.maxConnections <= 0) {
            log.info("client connections limited to {} (file descriptor limit {}; native_transport_max_concurrent_connections)", fit, fdLimit);
            return (int) Math.min(Integer.MAX_VALUE, fit);
        }
        if (config.maxConnections > fit) {
            log.warn("native_transport_max_concurrent_connections {} leaves fewer than {} of the file descriptor limit {} for "
                    + "storage and peers; raise the limit (ulimit -n) or lower the setting", config.maxConnections, reserve, fdLimit);
        }
        return config.maxConnections;
    }

    /** What the admin calls see of the node, and its drain. */
    private AdminEndpoint.NodeState adminState() {
        return new AdminEndpoint.NodeState() {
            public boolean nativeTransportActive() {
                return !drained;
            }

            public boolean gossipActive() {
                return !drained;
            }

            public void drain() {
                BallotNode.this.drain();
            }
        };
    }

    /**
     * Like nodetool drain: stops taking client connections (closing those open) and internode messages, then writes
     * every memtable to disk. A request already running may still write after the flush; its write is in the commit
     * log as any other. The process stays up (metrics and admin calls still answer) until it is stopped. Idempotent.
     */
    public synchronized void drain() {
        if (drained) return;
        log.info("draining: closing client connections and internode messaging");
        server.stop();
        cluster.close();
        storage.flushAll();
        drained = true;
        log.info("drained: the node takes no clients and no messages; stop the process when ready");
    }

    /** Where {@code GET /metrics} is served; null when metrics_port is 0. */
    public InetSocketAddress metricsAddress() {
        return metricsServer == null ? null : metricsServer.address();
    }

    /** TOPOLOGY_CHANGE and STATUS_CHANGE events for clients that registered for them, with the nodes' CQL addresses. */
    private MembershipListener clientEvents() {
        return new MembershipListener() {
            public void joined(NodeInfo node) {
                server.events().publish(new TopologyChange(TopologyChange.Change.NEW_NODE, cql(node)));
            }

            public void left(NodeInfo node) {
                server.events().publish(new TopologyChange(TopologyChange.Change.REMOVED_NODE, cql(node)));
            }

            public void up(NodeInfo node) {
                server.events().publish(new StatusChange(StatusChange.Status.UP, cql(node)));
            }

            public void down(NodeInfo node) {
                server.events().publish(new StatusChange(StatusChange.Status.DOWN, cql(node)));
            }
        };
    }

    private static InetSocketAddress cql(NodeInfo node) {
        return new InetSocketAddress(node.nativeAddress(), node.nativePort());
    }

    private ClusterOptions clusterOptions(NodeConfig config, InternodeTls internodeTls) throws UnknownHostException {
        InetSocketAddress listen = new InetSocketAddress(identity.address(), identity.storagePort());
        List<InetSocketAddress> seeds = ClusterOptions.parseSeeds(config.seeds, identity.storagePort());
        if (seeds.isEmpty()) seeds = List.of(listen);
        return ClusterOptions.builder(config.clusterName, identity.hostId(), identity.generation(), identity.tokens(), listen)
                .seeds(seeds)
                .phiConvictThreshold(config.phiConvictThreshold)
                .dataCenter(config.dataCenter)
                .rack(config.rack)
                .nativeAddress(identity.nativeAddress(), identity.nativePort())
                .releaseVersion(LocalNode.RELEASE_VERSION)
                .internodeTls(internodeTls)
                .build();
    }

    /** Host id and tokens are made once and kept; the generation grows at every start. */
    private LocalNode identity(NodeConfig config, int nativePort, int storagePort) throws UnknownHostException {
        byte[] hostIdBytes = storage.getMeta("local/host_id");
        UUID hostId;
        if (hostIdBytes == null) {
            hostId = UUID.randomUUID();
            storage.putMeta("local/host_id", hostId.toString().getBytes(StandardCharsets.UTF_8));
        } else {
            hostId = UUID.fromString(new String(hostIdBytes, StandardCharsets.UTF_8));
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
        return new LocalNode(config.clusterName, hostId, listen, storagePort, rpc, nativePort,
                config.dataCenter, config.rack, List.copyOf(tokens), generation);
    }

    /** A port free on {@code address} right now, for configurations that ask for any port (tests). */
    private static int freePort(String address) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + address + ": " + e.getMessage(), e);
        }
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
        closeQuietly();
        log.info("Ballot node stopped");
    }

    /** Interrupts the default superuser's setup and waits for it: a write it has begun must end before storage closes. */
    private void stopRoleSetup() {
        roleSetup.shutdownNow();
        try {
            if (!roleSetup.awaitTermination(10, TimeUnit.SECONDS)) log.warn("the default superuser's setup did not stop in 10 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The metrics endpoint (with the console's sampling) stops first: its gauges read storage and Paxos, which close after it. */
    private void closeQuietly() {
        if (roleSetup != null) stopRoleSetup();
        if (console != null) console.close();
        if (metricsServer != null) metricsServer.close();
        if (server != null) server.stop();
        if (admission != null) admission.close();
        if (requests != null) {
            requests.shutdown();
            try {
                if (!requests.awaitTermination(10, TimeUnit.SECONDS)) requests.shutdownNow();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (traces != null) traces.close();
        if (transactions != null) transactions.close();
        if (paxos != null) paxos.close();
        if (replication != null) replication.close();
        if (cluster != null) cluster.close();
        storage.close();
        if (metrics != null) metrics.close();
    }
}

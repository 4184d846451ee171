package ballot.tools.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The node's client connections, from its system_views.clients, as nodetool clientstats prints them: the count and
 * the connections per user, and with {@code --all} every connection (this CLI's own included).
 */
@Command(name = "clientstats", description = "Client connections to the node: the total and per user; every connection with --all "
        + "(from system_views.clients, like nodetool clientstats).")
final class ClientStatsCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @CommandLine.Option(names = "--all", description = "list every connection")
    boolean all;

    @CommandLine.Option(names = "--client-options", description = "list every connection with the options its driver sent at STARTUP")
    boolean clientOptions;

    /** One connection; {@code username} is null while it authenticates. */
    record Client(String address, int port, String username, String stage, int protocolVersion, long requests, boolean ssl,
                  String sslProtocol, String sslCipherSuite, String driverName, String driverVersion, Map<String, String> clientOptions) {
        String endpoint() {
            return "/" + address + ":" + port;
        }
    }

    record Stats(int total, Map<String, Integer> connectionsByUser, List<Client> clients) {}

    @Override
    public Integer call() {
        List<Client> clients;
        try (CqlSession session = parent.connect()) {
            clients = read(session);
        }
        Map<String, Integer> byUser = new TreeMap<>();
        for (Client c : clients) byUser.merge(c.username() == null ? "(authenticating)" : c.username(), 1, Integer::sum);
        if (parent.json) {
            parent.printJson(new Stats(clients.size(), byUser, clients));
            return 0;
        }
        PrintWriter out = parent.out();
        if (all || clientOptions) {
            List<List<String>> table = new ArrayList<>();
            List<String> header = new ArrayList<>(List.of("Address", "SSL", "Cipher", "Protocol", "Version", "User", "Stage", "Requests",
                    "Driver-Name", "Driver-Version"));
            if (clientOptions) header.add("Client-Options");
            table.add(header);
            for (Client c : clients) {
                List<String> row = new ArrayList<>(List.of(c.endpoint(), Boolean.toString(c.ssl()), orUndefined(c.sslCipherSuite()),
                        orUndefined(c.sslProtocol()), Integer.toString(c.protocolVersion()), orEmpty(c.username()), c.stage(),
                        Long.toString(c.requests()), orEmpty(c.driverName()), orEmpty(c.driverVersion())));
                if (clientOptions) row.add(c.clientOptions() == null ? "" : String.join(", ", c.clientOptions().entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue()).toList()));
                table.add(row);
            }
            AdminCli.printAligned(out, table);
            out.println();
        }
        out.println("Total connected clients: " + clients.size());
        out.println();
        List<List<String>> users = new ArrayList<>();
        users.add(List.of("User", "Connections"));
        byUser.forEach((user, n) -> users.add(List.of(user, Integer.toString(n))));
        AdminCli.printAligned(out, users);
        out.flush();
        return 0;
    }

    private List<Client> read(CqlSession session) {
        List<Client> clients = new ArrayList<>();
        for (Row r : AdminCli.ask(session, parent.contact(), SimpleStatement.newInstance("SELECT * FROM system_views.clients"))) {
            clients.add(new Client(r.getInetAddress("address").getHostAddress(), r.getInt("port"), r.getString("username"),
                    r.getString("connection_stage"), r.getInt("protocol_version"), r.getLong("request_count"), r.getBoolean("ssl_enabled"),
                    r.getString("ssl_protocol"), r.getString("ssl_cipher_suite"), r.getString("driver_name"), r.getString("driver_version"),
                    r.isNull("client_options") ? null : new TreeMap<>(r.getMap("client_options", String.class, String.class))));
        }
        clients.sort(Comparator.comparing(Client::address).thenComparingInt(Client::port));
        return clients;
    }

    private static String orUndefined(String s) {
        return s == null ? "undefined" : s;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}

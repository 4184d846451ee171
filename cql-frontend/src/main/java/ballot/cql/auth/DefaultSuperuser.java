package ballot.cql.auth;

import ballot.cql.error.CqlException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cassandra's role setup at start: once the node serves, it creates the superuser cassandra/cassandra if system_auth
 * holds no role, trying again every {@code retryMillis} until a read and write of the roles succeed (they need
 * replicas up). Nodes of a new cluster that do this at once write the same row at timestamp 0, so the role exists
 * once and any later change of it wins (RoleStore). With {@code warnIfDefaultPassword}, it warns while the
 * superuser's password is still "cassandra".
 */
public final class DefaultSuperuser {
    private static final Logger log = LoggerFactory.getLogger(DefaultSuperuser.class);
    static final long RETRY_MILLIS_MAX = 10_000;

    private final RoleStore roles;
    private final ScheduledExecutorService scheduler;
    private final boolean warnIfDefaultPassword;
    /** The wait before the next try; only the scheduler's thread reads and writes it. */
    private long retryMillis;

    /** @param scheduler single-threaded: the tries run one after another */
    public DefaultSuperuser(RoleStore roles, ScheduledExecutorService scheduler, long retryMillis, boolean warnIfDefaultPassword) {
        this.roles = roles;
        this.scheduler = scheduler;
        this.retryMillis = retryMillis;
        this.warnIfDefaultPassword = warnIfDefaultPassword;
    }

    /** Starts the setup on the scheduler and returns at once. */
    public void start() {
        scheduler.execute(this::setUp);
    }

    private void setUp() {
        try {
            if (roles.createDefaultSuperuserIfNoRoles())
                log.info("created default superuser role={}", RoleStore.DEFAULT_SUPERUSER);
            if (warnIfDefaultPassword && hasDefaultPassword())
                log.warn("the superuser role {} still has the default password; change it with ALTER ROLE {} WITH PASSWORD = '...'",
                        RoleStore.DEFAULT_SUPERUSER, RoleStore.DEFAULT_SUPERUSER);
        } catch (CqlException e) {
            log.info("role setup not possible yet, retrying in {} ms: {}", retryMillis, e.getMessage());
            retryLater();
        } catch (RuntimeException e) {
            log.error("role setup failed unexpectedly, retrying in {} ms", retryMillis, e);
            retryLater();
        }
    }

    private void retryLater() {
        scheduler.schedule(this::setUp, retryMillis, TimeUnit.MILLISECONDS);
        retryMillis = Math.min(2 * retryMillis, RETRY_MILLIS_MAX);
    }

    private boolean hasDefaultPassword() {
        var role = roles.find(RoleStore.DEFAULT_SUPERUSER);
        return role != null && PasswordHash.matches(RoleStore.DEFAULT_SUPERUSER, role.saltedHash());
    }
}

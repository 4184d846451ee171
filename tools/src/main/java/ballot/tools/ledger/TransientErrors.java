package ballot.tools.ledger;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import java.util.List;

/**
 * Which statement errors leave a transfer in an unknown state that a retry will resolve: the operating conditions of a
 * cluster (timeouts, including a CAS whose proposal may have been accepted; unavailable or overloaded replicas; lost
 * connections). Everything else (an invalid statement, a missing table, a server error) is a bug or a setup mistake,
 * which a retry would only repeat.
 */
final class TransientErrors {
    private TransientErrors() {}

    static boolean leaveOutcomeUnknown(Throwable error) {
        if (error instanceof AllNodesFailedException all) {
            // NoNodeAvailableException (a subclass) has no errors: no node could be tried, which is transient too
            return all.getAllErrors().values().stream().flatMap(List::stream).allMatch(TransientErrors::leaveOutcomeUnknown);
        }
        return error instanceof QueryConsistencyException   // read/write timeouts and failures, CAS write unknown
                || error instanceof UnavailableException
                || error instanceof OverloadedException
                || error instanceof BootstrappingException
                || error instanceof DriverTimeoutException
                || error instanceof NodeUnavailableException
                || error instanceof RequestThrottlingException
                || error instanceof BusyConnectionException
                || error instanceof ClosedConnectionException
                || error instanceof HeartbeatException;
    }
}

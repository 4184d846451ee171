package ballot.tools.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which statement errors make a transfer TIMED_OUT_UNKNOWN (a retry resolves it), and which are thrown to the caller. */
class TransientErrorsTest {
    private static final Node NODE = null; // the exceptions only carry it

    private static WriteTimeoutException casTimeout() {
        return new WriteTimeoutException(NODE, DefaultConsistencyLevel.SERIAL, 0, 1, DefaultWriteType.CAS);
    }

    @Test
    void operatingConditionsLeaveTheOutcomeUnknown() {
        assertThat(TransientErrors.leaveOutcomeUnknown(casTimeout())).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new WriteTimeoutException(NODE, DefaultConsistencyLevel.QUORUM, 0, 1, DefaultWriteType.SIMPLE))).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new ReadTimeoutException(NODE, DefaultConsistencyLevel.SERIAL, 0, 1, false))).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new UnavailableException(NODE, DefaultConsistencyLevel.SERIAL, 2, 1))).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new OverloadedException(NODE))).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new DriverTimeoutException("Query timed out after PT12S"))).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new ClosedConnectionException("connection closed"))).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(new NoNodeAvailableException())).isTrue();
    }

    @Test
    void mistakesAndBugsAreNotRetried() {
        assertThat(TransientErrors.leaveOutcomeUnknown(new InvalidQueryException(NODE, "unconfigured table transfers"))).isFalse();
        assertThat(TransientErrors.leaveOutcomeUnknown(new SyntaxError(NODE, "line 1:0 no viable alternative"))).isFalse();
        assertThat(TransientErrors.leaveOutcomeUnknown(new ServerError(NODE, "java.lang.NullPointerException"))).isFalse();
        assertThat(TransientErrors.leaveOutcomeUnknown(new IllegalStateException("bug"))).isFalse();
    }

    @Test
    void allNodesFailedIsTransientOnlyIfEveryNodesErrorIs() {
        AllNodesFailedException transientOnly = AllNodesFailedException.fromErrors(List.of(Map.entry(nodeStub(), casTimeout())));
        AllNodesFailedException withInvalid = AllNodesFailedException.fromErrors(List.of(Map.entry(nodeStub(), casTimeout()),
                Map.entry(nodeStub(), new InvalidQueryException(NODE, "unconfigured table transfers"))));
        assertThat(TransientErrors.leaveOutcomeUnknown(transientOnly)).isTrue();
        assertThat(TransientErrors.leaveOutcomeUnknown(withInvalid)).isFalse();
    }

    /** A distinct node for each error: AllNodesFailedException keys them by node. */
    private static Node nodeStub() {
        return (Node) java.lang.reflect.Proxy.newProxyInstance(Node.class.getClassLoader(), new Class<?>[] {Node.class}, (proxy, method, args) -> switch (method.getName()) {
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "node";
            default -> null;
        });
    }
}

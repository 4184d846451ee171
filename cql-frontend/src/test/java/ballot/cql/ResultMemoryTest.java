package ballot.cql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.OverloadedException;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

class ResultMemoryTest {
    private final ResultMemory memory = new ResultMemory(100, 60);

    @Test
    void rowsAreReservedUntilReleased() {
        ResultMemory.Account account = memory.account();
        ResultMemory.Lease lease = account.lease();
        lease.reserve(40);
        lease.reserve(20);
        assertThat(account.bytes()).isEqualTo(60);
        assertThat(memory.bytes()).isEqualTo(60);
        lease.release();
        assertThat(account.bytes()).isZero();
        assertThat(memory.bytes()).isZero();
        assertThat(memory.refusals()).isZero();
    }

    @Test
    void aResultLargerThanAConnectionsShareIsInvalidAndReservesNothing() {
        ResultMemory.Account account = memory.account();
        ResultMemory.Lease lease = account.lease();
        lease.reserve(50);
        assertThatThrownBy(() -> lease.reserve(11)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("native_transport_max_result_data_per_connection_in_mb");
        assertThat(account.bytes()).isEqualTo(50);
        assertThat(memory.refusals()).isEqualTo(1);
    }

    @Test
    void rowsThatWouldPassTheConnectionsShareBesideItsOtherResultsAreOverloaded() {
        ResultMemory.Account account = memory.account();
        account.charge(30); // an encoded response the client has not read
        ResultMemory.Lease lease = account.lease();
        lease.reserve(30);
        assertThatThrownBy(() -> lease.reserve(1)).isInstanceOf(OverloadedException.class)
                .hasMessageContaining("on this connection");
        account.release(30);
        lease.reserve(1);
        assertThat(account.bytes()).isEqualTo(31);
    }

    @Test
    void rowsThatWouldPassTheNodesBudgetAreOverloadedWhateverTheConnection() {
        ResultMemory.Lease first = memory.account().lease();
        ResultMemory.Lease second = memory.account().lease();
        first.reserve(60);
        assertThatThrownBy(() -> second.reserve(41)).isInstanceOf(OverloadedException.class);
        assertThat(memory.bytes()).as("a refused reservation takes nothing").isEqualTo(60);
        second.reserve(40);
        assertThat(memory.bytes()).isEqualTo(100);
    }

    @Test
    void encodedResponsesAreChargedEvenPastTheBudget() {
        ResultMemory.Account account = memory.account();
        account.charge(150);
        assertThat(memory.bytes()).isEqualTo(150);
        assertThatThrownBy(() -> account.lease().reserve(1)).isInstanceOf(OverloadedException.class);
    }

    @Test
    void aStatementStopsAtItsNextReservationOnceItsClientHasGone() {
        ResultMemory.Account account = memory.account();
        ResultMemory.Lease lease = account.lease();
        lease.reserve(10);
        account.close();
        assertThatThrownBy(() -> lease.reserve(1)).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> lease.reserve(0)).isInstanceOf(CancellationException.class);
        lease.release();
        assertThat(memory.bytes()).isZero();
    }

    @Test
    void theNodesOwnStatementsAreNotMetered() {
        ResultMemory.Lease lease = ResultMemory.Account.UNMETERED.lease();
        lease.reserve(Long.MAX_VALUE / 2);
        lease.reserve(Long.MAX_VALUE / 2);
        lease.release(); // nothing to refuse, nothing to return: the reservations above would have thrown
    }
}

package ballot.paxos.acceptor;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.PaxosKey;
import org.junit.jupiter.api.Test;

/** The deferred promises' age order: what overflows, and how a partition's write sets its entry aside. */
class DeferredPromisesTest {
    private static final PaxosKey A = PaxosKey.of("a");
    private static final PaxosKey B = PaxosKey.of("b");
    private static final PaxosKey C = PaxosKey.of("c");
    private static final AcceptorState STATE = AcceptorState.floor(1);

    @Test
    void theOldestOverflowsOnceMoreThanMaxWait() {
        DeferredPromises deferred = new DeferredPromises(2);
        deferred.defer(A, STATE);
        deferred.defer(B, STATE);
        assertThat(deferred.overflow()).isNull();
        deferred.defer(C, STATE);
        assertThat(deferred.overflow().getKey()).isEqualTo(A);
        deferred.defer(A, STATE); // newer registers of a: the youngest now
        assertThat(deferred.overflow().getKey()).isEqualTo(B);
    }

    @Test
    void anEntryWhosePartitionIsBeingWrittenIsSetAsideButStillServed() {
        DeferredPromises deferred = new DeferredPromises(1);
        deferred.defer(A, STATE);
        deferred.defer(B, STATE);
        deferred.writing(A); // a's write carries registers at least as new
        assertThat(deferred.overflow()).as("one left in the age order").isNull();
        assertThat(deferred.get(A)).isSameAs(STATE);

        deferred.defer(C, STATE);
        assertThat(deferred.overflow().getKey()).isEqualTo(B);

        deferred.notWritten(A); // the write failed: a's promise is still owed, and ages again as the youngest
        deferred.writing(B);
        assertThat(deferred.overflow().getKey()).isEqualTo(C);
        deferred.durable(C);
        deferred.durable(B);
        assertThat(deferred.overflow()).isNull();
        assertThat(deferred.get(A)).isSameAs(STATE);
        assertThat(deferred.get(B)).isNull();
    }
}

package ballot.paxos.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ballot.paxos.Ballot;
import ballot.paxos.BallotGenerator;
import ballot.paxos.NodeId;
import ballot.paxos.coordinator.CasCoordinator;
import ballot.paxos.coordinator.CasResult;
import ballot.paxos.coordinator.WorkSlot;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Reply;
import ballot.paxos.spi.Transport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two coordinators of one node that may coordinate the same partition (the server's first-class and background
 * coordinators of a lane, docs/paxos.md §4.1) must not issue the same ballot: with one generator each they do, in the
 * same microsecond; sharing one they cannot.
 */
class SharedBallotsTest {
    private final ManualCluster cluster = new ManualCluster();
    private List<CasCoordinator> coordinators;

    @Test
    void coordinatorsWithTheirOwnGeneratorsIssueTheSameBallotInOneMicrosecond() {
        Ballot[] ballots = prepareBallots(null, null);
        assertEquals(ballots[0], ballots[1], "the hazard the shared generator removes");
    }

    @Test
    void coordinatorsSharingAGeneratorIssueDistinctBallotsAndBothDecide() {
        BallotGenerator shared = new BallotGenerator(cluster.clock, ManualCluster.N4, 0);
        List<CasResult> results = new ArrayList<>();
        Ballot[] ballots = prepareBallots(shared, results);
        assertNotEquals(ballots[0], ballots[1]);
        for (int i = 0; i < 200 && results.size() < 2; i++) {
            cluster.deliver(ManualCluster.is(ballot.paxos.message.Request.class));
            // The replies reach both coordinators, as a lane hands a reply to the class of its partition: each
            // ignores what does not answer its own round.
            List<ManualCluster.Envelope> replies = cluster.inFlight.stream().filter(ManualCluster.repliesTo(ManualCluster.N4)).toList();
            cluster.inFlight.removeAll(replies);
            for (ManualCluster.Envelope e : replies)
                for (CasCoordinator c : coordinators) c.receive(e.from(), (Reply) e.message());
            cluster.nanos += 1_000_000L;
            for (CasCoordinator c : coordinators) c.tick();
        }
        assertEquals(2, results.size(), "both requests answered: " + results);
        assertTrue(results.stream().allMatch(r -> r.outcome() == CasResult.Outcome.APPLIED), results::toString);
    }

    @Test
    void aGeneratorOfAnotherNodeIsRefused() {
        BallotGenerator other = new BallotGenerator(cluster.clock, ManualCluster.N1, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder(other).build());
        assertTrue(e.getMessage().contains("another node"), e.getMessage());
    }

    /** Each of two coordinators of node 4 submits a write of the partition at the same instant; their prepares' ballots. */
    private Ballot[] prepareBallots(BallotGenerator shared, List<CasResult> results) {
        CasCoordinator first = builder(shared).build();
        CasCoordinator second = builder(shared).build();
        coordinators = List.of(first, second);
        long deadline = cluster.nanos + 1_000_000_000L;
        List<CasResult> out = results != null ? results : new ArrayList<>();
        first.submit(ManualCluster.KEY, ManualCluster.ELECTORATE, cluster.set(1), SimLevel.QUORUM.resolve(ManualCluster.ELECTORATE),
                deadline, WorkSlot.NONE, out::add);
        second.submit(ManualCluster.KEY, ManualCluster.ELECTORATE, cluster.set(2), SimLevel.QUORUM.resolve(ManualCluster.ELECTORATE),
                deadline, WorkSlot.NONE, out::add);
        List<Ballot> byCoordinator = new ArrayList<>();
        for (ManualCluster.Envelope e : cluster.inFlight)
            if (e.message() instanceof Prepare && e.to().equals(ManualCluster.N1)) byCoordinator.add(e.message().ballot());
        assertEquals(2, byCoordinator.size(), "one prepare to n1 from each coordinator: " + cluster.inFlight);
        return byCoordinator.toArray(new Ballot[0]);
    }

    private CasCoordinator.Builder builder(BallotGenerator shared) {
        CasCoordinator.Builder builder = CasCoordinator.builder()
                .self(ManualCluster.N4, 0)
                .transport(new Transport() {
                    @Override
                    public void send(NodeId to, ballot.paxos.message.Message message) {
                        cluster.inFlight.add(new ManualCluster.Envelope(ManualCluster.N4, to, message));
                    }

                    @Override
                    public boolean isAlive(NodeId node) {
                        return true;
                    }
                })
                .clock(cluster.clock)
                .random(bound -> bound / 2)
                .readModel(SimRow.MODEL);
        return shared == null ? builder : builder.ballots(shared);
    }
}

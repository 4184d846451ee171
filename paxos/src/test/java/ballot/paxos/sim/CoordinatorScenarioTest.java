package ballot.paxos.sim;

import static ballot.paxos.sim.ManualCluster.N1;
import static ballot.paxos.sim.ManualCluster.N2;
import static ballot.paxos.sim.ManualCluster.N3;
import static ballot.paxos.sim.ManualCluster.N4;
import static ballot.paxos.sim.ManualCluster.from;
import static ballot.paxos.sim.ManualCluster.is;
import static ballot.paxos.sim.ManualCluster.p;
import static ballot.paxos.sim.ManualCluster.repliesTo;
import static ballot.paxos.sim.ManualCluster.requestsFrom;
import static ballot.paxos.sim.ManualCluster.to;
import static ballot.paxos.sim.ManualCluster.v;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.Bytes;
import ballot.paxos.Electorate;
import ballot.paxos.Mark;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.coordinator.BallotTooEarly;
import ballot.paxos.coordinator.CasCoordinator;
import ballot.paxos.coordinator.CasRequest;
import ballot.paxos.coordinator.CasResult.Outcome;
import ballot.paxos.coordinator.CasResult;
import ballot.paxos.coordinator.CommitLevel;
import ballot.paxos.coordinator.WorkSlot;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Scripted scenarios against real coordinators and replicas with a hand-driven network (docs/paxos.md §10,
 * layer 2). Each test names the behaviour and the section of docs/paxos.md that requires it.
 */
class CoordinatorScenarioTest {

    /** §7: cold = prepare + accept (+ commit); steady state = accept (+ commit) by riding the held promise. */
    @ParameterizedTest(name = "{0} from node {1}: first {2} round trips, then {3}")
    @CsvSource({"ANY, 1, 2, 1", "ONE, 1, 2, 1", "QUORUM, 1, 2, 1", "ALL, 1, 2, 1", "ANY, 4, 2, 1", "ONE, 4, 3, 2",
            "QUORUM, 4, 3, 2"})
    void roundTripsPerCommitLevel(SimLevel level, int coordinator, int cold, int steady) {
        ManualCluster c = new ManualCluster();
        var node = ballot.paxos.NodeId.of(coordinator);
        List<CasResult> first = c.submit(node, c.cas(null, 1L), level);
        c.deliverAll();
        List<CasResult> second = c.submit(node, c.cas(1L, 2L), level);
        c.deliverAll();
        List<CasResult> third = c.submit(node, c.cas(2L, 3L), level);
        c.deliverAll();
        assertThat(first).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.APPLIED);
            assertThat(r.roundTrips()).isEqualTo(cold);
            assertThat(r.fastPath()).isFalse();
        });
        for (List<CasResult> later : List.of(second, third))
            assertThat(later).singleElement().satisfies(r -> {
                assertThat(r.outcome()).isEqualTo(Outcome.APPLIED);
                assertThat(r.roundTrips()).isEqualTo(steady);
                assertThat(r.fastPath()).isTrue();
            });
        assertThat(v(third.get(0))).isEqualTo(2L);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(3L);
    }

    /**
     * §5.6: the state holds a write stamped after the round's ballot (evaluate says so). Nothing is proposed; the
     * round runs again with a ballot after that write, on the prepare path and on the fast path alike.
     */
    @Test
    void aBallotBehindTheDataItReadRunsAgainAfterIt() {
        ManualCluster c = new ManualCluster();
        long ahead = c.clock.wallMicros() + 50_000;
        List<Long> evaluatedAt = new ArrayList<>();
        SimRequest set = c.cas(null, 1L);
        CasRequest behind = new CasRequest() {
            @Override
            public Bytes query() {
                return set.query();
            }

            @Override
            public Optional<Bytes> evaluate(Bytes current, long timestampMicros) {
                evaluatedAt.add(timestampMicros);
                if (timestampMicros <= ahead) throw new BallotTooEarly(ahead);
                return set.evaluate(current, timestampMicros);
            }
        };
        List<CasResult> first = c.submit(N1, behind, SimLevel.QUORUM);
        c.deliverAll();
        assertThat(first).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(evaluatedAt).hasSize(2);
        assertThat(evaluatedAt.get(1)).isGreaterThan(ahead);
        assertThat(c.marks).containsEntry(Mark.BALLOT_TOO_EARLY, 1);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(1L);

        long later = evaluatedAt.get(1) + 50_000; // the held promise's ballot is now behind a write too
        SimRequest next = c.cas(1L, 2L);
        List<CasResult> second = c.submit(N1, new CasRequest() {
            @Override
            public Bytes query() {
                return next.query();
            }

            @Override
            public Optional<Bytes> evaluate(Bytes current, long timestampMicros) {
                if (timestampMicros <= later) throw new BallotTooEarly(later);
                return next.evaluate(current, timestampMicros);
            }
        }, SimLevel.QUORUM);
        c.deliverAll();
        assertThat(second).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.APPLIED);
            assertThat(r.fastPath()).as("decided by a fresh prepare").isFalse();
        });
        assertThat(c.marks).containsEntry(Mark.BALLOT_TOO_EARLY, 2);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(2L);
    }

    /**
     * §4.2: with one voter of three down, a single refusal leaves no quorum within reach. The round stops waiting and
     * retries after its back-off. Before, it waited for the down voter's answer until its deadline, and the partition's
     * later requests waited behind it (an LWT right behind a transaction, with one node stopped, timed out that way).
     */
    @Test
    void aRefusalWithAVoterDownRetriesInsteadOfWaitingForTheDeadline() {
        ManualCluster c = new ManualCluster();
        c.down.add(N3);
        List<CasResult> first = c.submit(N1, c.cas(null, 1L), SimLevel.QUORUM);
        List<CasResult> rival = c.submit(N2, c.set(2L), SimLevel.QUORUM);
        c.deliver(from(N2).and(to(N2))); // N2's replica promises the rival's later ballot
        c.deliver(from(N1).or(to(N1))); // N1's own promise, N2's refusal; its prepare to N3 goes nowhere
        assertThat(first).as("one promise, one refusal, one voter down").isEmpty();
        for (int i = 0; i < 10 && (first.isEmpty() || rival.isEmpty()); i++) {
            c.advance(Duration.ofMillis(20));
            c.deliverAll();
        }
        assertThat(first).as("answered within 200 ms, long before the deadline of 1 s").singleElement()
                .extracting(CasResult::outcome).isIn(Outcome.APPLIED, Outcome.NOT_APPLIED);
        assertThat(rival).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(c.marks).containsKey(Mark.CONTENTION);
    }

    /**
     * §4.9: a checked proposal accepted by our replica alone, refused as stale by the second, with the third down, is
     * in doubt until the third answers: its replays back off between attempts, and once the third is back one is
     * decided. Before, each refused replay ran the next at once, without a pause, until the deadline.
     */
    @Test
    void aReplayThatOnlyADownVoterCanDecideBacksOffUntilItIsBack() {
        ManualCluster c = new ManualCluster();
        c.submit(N1, c.cas(null, 1L), SimLevel.QUORUM);
        c.deliverAll(); // all three report their versions; n1 holds the promise for a fast next round
        c.down.add(N3);
        c.plainWrite(7, N2); // n2's data moves on: it refuses the fast proposal checked against its old version
        List<CasResult> write = c.submit(N1, c.cas(1L, 2L), SimLevel.QUORUM);
        int delivered = c.deliver(e -> true, 1_000);
        assertThat(delivered).as("the refused replays settle into a back-off in no time").isLessThan(1_000);
        assertThat(c.marks).as("the prepare did not wait for the down voter's promise")
                .containsKeys(Mark.FAST_PATH_STALE, Mark.PROPOSAL_IN_DOUBT, Mark.PREPARE_FOUND_INCOMPLETE,
                        Mark.REPLAY_AWAITS_DOWN_VOTER)
                .doesNotContainKey(Mark.CONTENTION);
        assertThat(write).isEmpty();

        int prepares = c.marks.get(Mark.PREPARE);
        for (int i = 0; i < 10; i++) {
            c.advance(Duration.ofMillis(10));
            c.deliverAll();
        }
        assertThat(write).as("still in doubt while n3 is down").isEmpty();
        assertThat(c.marks.get(Mark.PREPARE) - prepares).as("it keeps trying, paced by the back-off").isBetween(2, 40);
        c.down.remove(N3);
        for (int i = 0; i < 10 && write.isEmpty(); i++) {
            c.advance(Duration.ofMillis(20));
            c.deliverAll();
        }
        assertThat(write).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(c.marks).as("waiting for a down voter is not contention").doesNotContainKey(Mark.CONTENTION);
        assertThat(c.storedV(N3)).isEqualTo(2L);
    }

    /** §4.3: an accepted, uncommitted proposal found in the promises is finished before anything else. */
    @Test
    void finishesIncompleteProposalFirst() {
        ManualCluster c = new ManualCluster();
        c.submit(N4, c.set(10), SimLevel.ANY); // not a replica: it sends its proposal to all three at once
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.deliver(is(Propose.class).and(to(N3)));
        c.inFlight.clear();
        c.restartCoordinator(N4, 1); // the first coordinator dies with its proposal accepted only by n3
        assertThat(c.stores.get(N3).load(ManualCluster.KEY).accepted()).isNotNull();

        List<CasResult> r = c.submit(N2, c.cas(null, 20L), SimLevel.ANY);
        c.drop(is(Prepare.class).and(to(N1)));
        c.deliverAll();
        assertThat(c.marks).containsKey(Mark.PREPARE_FOUND_INCOMPLETE);
        assertThat(r).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(x)).isEqualTo(10L); // it saw the finished write, not the state before it
        });
        assertThat(c.storedV(N2)).isEqualTo(10L);
        assertThat(c.storedV(N3)).isEqualTo(10L);
    }

    /**
     * §4.4: a failed condition read from a decree applied at fewer replicas than the request's commit level is answered
     * only once the decree is applied at that level, so that a QUORUM read after the answer sees what it saw.
     */
    @Test
    void aReadOnlyRoundAnswersOnceItsDecreeIsAppliedAtTheCommitLevel() {
        ManualCluster c = new ManualCluster();
        c.submit(N4, c.set(10), SimLevel.ANY); // not a replica: none applies it on acceptance
        c.deliver(is(Prepare.class).or(is(Promise.class)).or(is(Propose.class)).or(is(Accepted.class)));
        c.deliver(is(ballot.paxos.message.Commit.class).and(to(N3)));
        c.inFlight.clear();
        c.restartCoordinator(N4, 1); // decided, applied by n3 alone, and nobody retries its commit
        assertThat(c.storedV(N1)).isNull();
        assertThat(c.storedV(N2)).isNull();

        List<Integer> appliedAtAnswer = new ArrayList<>();
        List<CasResult> out = new ArrayList<>();
        c.nanos += 1_000_000L; // a ballot after the decree's
        c.coordinator(N4).submit(ManualCluster.KEY, ManualCluster.ELECTORATE, c.cas(5L, 20L),
                CommitLevel.quorum(ManualCluster.ELECTORATE), c.nanos + 1_000_000_000L, WorkSlot.NONE, r -> {
                    appliedAtAnswer.add((int) List.of(N1, N2, N3).stream().filter(n -> Long.valueOf(10).equals(c.storedV(n))).count());
                    out.add(r);
                });
        c.drop(is(Prepare.class).and(to(N2))); // the promise quorum is n1 (stale) and n3
        c.deliverAll();
        assertThat(out).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(r)).isEqualTo(10L);
        });
        assertThat(c.marks).containsKeys(Mark.READ_ONLY_ROUND, Mark.PREPARE_FOUND_STALE_COMMIT);
        assertThat(appliedAtAnswer).as("replicas that applied the decree the answer saw").singleElement()
                .satisfies(n -> assertThat(n).isGreaterThanOrEqualTo(2));
    }

    /**
     * §4.4: with every promising replica up to date, a commit level beyond them (ALL) still waits for the others; and
     * a commit round this session still sends counts what it heard before the promises.
     */
    @Test
    void aReadOnlyAnswerAtAllWaitsForTheReplicaOutsideItsPromises() {
        ManualCluster c = new ManualCluster();
        List<CasResult> first = c.submit(N1, c.set(10), SimLevel.QUORUM);
        c.drop(is(ballot.paxos.message.Commit.class).and(to(N3)).or(is(Propose.class).and(to(N3))));
        c.deliver(to(N3).negate());
        c.drop(to(N3));
        assertThat(first).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(c.storedV(N3)).as("n3 missed the decree").isNull();
        c.restartCoordinator(N1, 1); // nobody retries the commit to n3

        List<CasResult> read = c.submit(N1, c.cas(5L, 20L), SimLevel.ALL);
        c.deliver(is(Prepare.class).and(to(N3).negate()).or(is(Promise.class).and(from(N3).negate())));
        assertThat(read).as("n1 and n2 promised, both up to date; n3 has not applied the decree").isEmpty();
        c.drop(is(Prepare.class).or(is(Promise.class)));
        c.deliverAll();
        assertThat(read).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(r)).isEqualTo(10L);
            assertThat(r.roundTrips()).as("the prepare, then the commit to n3").isEqualTo(2);
        });
        assertThat(c.storedV(N3)).isEqualTo(10L);
        assertThat(c.marks).containsKey(Mark.READ_ONLY_AWAITS_COMMIT);
    }

    /**
     * §4.13: a replica still holding an older accepted proposal (it missed the later decision) must find the later
     * decree on the others: registers whose decree is not known applied everywhere are not purged, so the old
     * proposal is recognised as stale and never re-proposed over the later write.
     */
    @Test
    void registersAnOldProposalIsOutrankedByAreNotPurged() {
        ManualCluster c = new ManualCluster();
        c.submit(N4, c.set(10), SimLevel.ANY); // not a replica: it proposes to all three at once
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.deliver(is(Propose.class).and(to(N3)));
        c.inFlight.clear();
        c.restartCoordinator(N4, 1); // n3 holds the accepted set(10), never decided
        assertThat(c.stores.get(N3).load(ManualCluster.KEY).accepted()).isNotNull();

        List<CasResult> later = c.submit(N2, c.set(20), SimLevel.QUORUM);
        c.deliver(to(N3).negate()); // decided and applied by n1 and n2; everything for n3 stays in flight
        c.drop(to(N3));
        assertThat(later).singleElement().satisfies(x -> assertThat(x.outcome()).isEqualTo(Outcome.APPLIED));

        c.nanos += 3_600_000_000_000L; // an hour later, far past any grace period
        long floor = c.clock.wallMicros() - 1;
        for (ballot.paxos.NodeId n : List.of(N1, N2)) {
            c.stores.get(n).raiseFloor(floor);
            assertThat(c.acceptors.get(n).purge(ManualCluster.KEY, floor)).as("purge of %s", n).isFalse();
        }

        List<CasResult> read = c.submit(N1, c.read(), SimLevel.ANY);
        c.drop(is(Prepare.class).and(to(N2)));
        c.deliverAll();
        assertThat(read).singleElement().satisfies(x -> assertThat(v(x)).isEqualTo(20L));
        assertThat(c.storedV(N1)).isEqualTo(20L);
    }

    /** §4.8, §5.7: a plain write since the cached read makes replicas refuse the fast proposal; the retry reads it. */
    @Test
    void plainWriteInvalidatesFastPath() {
        ManualCluster c = new ManualCluster();
        c.submit(N1, c.cas(null, 1L), SimLevel.ANY);
        c.deliverAll();
        c.plainWrite(7, N2, N3); // a QUORUM plain write completes before the next request arrives
        List<CasResult> r = c.submit(N1, c.cas(1L, 2L), SimLevel.ANY);
        c.deliverAll();
        assertThat(c.marks).containsKeys(Mark.FAST_PATH_STALE, Mark.RETRY_WITHOUT_SIDE_EFFECTS);
        assertThat(r).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.APPLIED);
            assertThat(p(x)).isEqualTo(7L);
            assertThat(x.roundTrips()).isEqualTo(3); // refused fast attempt, prepare, accept
        });
    }

    /**
     * §5.7: a fast proposal evaluated on stale data that one replica accepted must never be finished by anyone: with
     * every promise in hand, the next coordinator proves it unchoosable and skips it.
     */
    @Test
    void staleFastProposalIsNeverFinished() {
        ManualCluster c = new ManualCluster();
        orphanedFastProposal(c, N1, N2, N3); // only n1, not hit by the plain write, accepts it

        List<CasResult> read = c.submit(N4, c.read(), SimLevel.ANY);
        c.deliverAll();
        c.advance(Duration.ofMillis(20));
        c.deliverAll();
        assertThat(c.marks).containsKey(Mark.PREPARE_SKIPPED_DEAD_PROPOSAL).doesNotContainKey(Mark.PREPARE_FOUND_INCOMPLETE);
        assertThat(read).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(x)).isEqualTo(1L);
            assertThat(p(x)).isEqualTo(7L);
        });
        List<CasResult> write = c.submit(N2, c.cas(1L, 3L), SimLevel.QUORUM);
        c.deliverAll();
        assertThat(write).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(3L);
    }

    /**
     * v = 1 is decided, then a plain write of p = 7 reaches {@code plainWriteAt}; {@code coordinator}'s fast proposal of
     * v = 2, checked against the versions it read before, is accepted by its own replica only, and the coordinator dies.
     */
    private static void orphanedFastProposal(ManualCluster c, NodeId coordinator, NodeId... plainWriteAt) {
        c.submit(coordinator, c.cas(null, 1L), SimLevel.ANY);
        c.deliverAll();
        c.plainWrite(7, plainWriteAt);
        c.submit(coordinator, c.cas(1L, 2L), SimLevel.ANY);
        c.deliver(is(Propose.class).and(to(coordinator)));
        c.inFlight.clear();
        c.restartCoordinator(coordinator, 1);
    }

    /**
     * docs/admission.md, per-partition cap: with a round in flight and the most requests allowed already waiting for
     * the partition, the next is answered OVERLOADED at once and sends nothing; those waiting are decided as before.
     */
    @Test
    void overloadedWhenThePartitionQueueIsFull() {
        ManualCluster c = new ManualCluster();
        c.partitionQueueMax = 2;
        List<CasResult> inRound = c.submit(N1, c.set(1), SimLevel.ANY);
        List<CasResult> second = c.submit(N1, c.set(2), SimLevel.ANY);
        List<CasResult> third = c.submit(N1, c.set(3), SimLevel.ANY);
        int sent = c.inFlight.size();
        List<CasResult> refused = c.submit(N1, c.set(4), SimLevel.ANY);
        assertThat(refused).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.OVERLOADED);
        assertThat(c.inFlight).hasSize(sent);
        assertThat(c.marks).containsEntry(Mark.OVERLOADED, 1);
        c.deliverAll();
        assertThat(inRound).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(second).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(third).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
    }

    /**
     * A request queued behind its partition's round gives its admission slot back; the first of the next round's batch
     * takes its slot back, and the rest of the batch ride on it (docs/admission.md, "waiting on a partition").
     */
    @Test
    void requestsQueuedBehindARoundGiveTheirSlotBackAndTheNextRoundsLeadTakesItsBack() {
        ManualCluster c = new ManualCluster();
        List<String> slots = new ArrayList<>();
        List<CasResult> first = c.submit(N1, ManualCluster.KEY, c.set(1), SimLevel.ANY, recording("first", slots));
        List<CasResult> second = c.submit(N1, ManualCluster.KEY, c.set(2), SimLevel.ANY, recording("second", slots));
        List<CasResult> third = c.submit(N1, ManualCluster.KEY, c.set(3), SimLevel.ANY, recording("third", slots));
        assertThat(slots).containsExactly("second gives back", "third gives back");
        c.deliverAll();
        assertThat(slots).containsExactly("second gives back", "third gives back", "second takes back");
        for (List<CasResult> r : List.of(first, second, third))
            assertThat(r).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
    }

    private static WorkSlot recording(String name, List<String> events) {
        return new WorkSlot() {
            @Override
            public void giveBack() {
                events.add(name + " gives back");
            }

            @Override
            public void takeBack() {
                events.add(name + " takes back");
            }
        };
    }

    /** §4.10: fewer live replicas than a quorum when the request arrives: UNAVAILABLE, nothing sent. */
    @Test
    void unavailableWhenNoQuorumIsAlive() {
        ManualCluster c = new ManualCluster();
        c.down.add(N2);
        c.down.add(N3);
        List<CasResult> r = c.submit(N1, c.set(1), SimLevel.ANY);
        assertThat(r).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.UNAVAILABLE);
        assertThat(c.inFlight).isEmpty();
        c.down.remove(N3);
        List<CasResult> all = c.submit(N1, c.set(1), SimLevel.ALL); // the commit level needs all three
        assertThat(all).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.UNAVAILABLE);
    }

    /**
     * §4.9: voters lost after a request arrived leave its prepare without a quorum; the next attempt, after a back-off,
     * answers it UNAVAILABLE (nothing of it was proposed), as Cassandra re-checks live replicas before each attempt.
     * Before, it prepared again and again until its deadline, each failure counted as contention, and timed out.
     */
    @Test
    void votersLostAfterArrivalAnswerUnavailableBeforeTheDeadline() {
        ManualCluster c = new ManualCluster();
        List<CasResult> r = c.submit(N1, c.set(1), SimLevel.QUORUM);
        c.down.add(N2);
        c.down.add(N3);
        c.deliverAll(); // only n1's own promise arrives
        c.advance(Duration.ofMillis(200));
        c.deliverAll();
        assertThat(r).as("answered well before the deadline of 1 s").singleElement()
                .extracting(CasResult::outcome).isEqualTo(Outcome.UNAVAILABLE);
        assertThat(c.marks).containsEntry(Mark.PREPARE, 1).containsKey(Mark.UNAVAILABLE).doesNotContainKey(Mark.CONTENTION);
        assertThat(c.storedV(N1)).isNull();
    }

    /** §4.10: a timeout after the proposal may have been accepted is UNKNOWN, never a failure. */
    @Test
    void timeoutAfterPossibleAcceptIsUnknown() {
        ManualCluster c = new ManualCluster();
        List<CasResult> r = c.submit(N4, c.set(5), SimLevel.ANY); // not a replica: it proposes to all three at once
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.deliver(is(Propose.class).and(to(N2)));
        c.drop(e -> true); // n2's acceptance is lost; nothing else arrives
        assertThat(c.stores.get(N2).load(ManualCluster.KEY).accepted()).isNotNull();
        c.advance(Duration.ofMillis(1100));
        assertThat(r).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.UNKNOWN);
        assertThat(c.marks).containsKey(Mark.RETRANSMIT);
    }

    /** §4.10: a timeout before any proposal carrying the request was sent: TIMED_OUT, which means no effect. */
    @Test
    void timeoutBeforeProposingHasNoEffect() {
        ManualCluster c = new ManualCluster();
        List<CasResult> r = c.submit(N1, c.set(5), SimLevel.ANY);
        c.drop(e -> true);
        c.advance(Duration.ofMillis(500));
        c.drop(e -> true);
        c.advance(Duration.ofMillis(600));
        assertThat(r).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.TIMED_OUT);
    }

    /** §8: requests queued behind a round run as one round, each evaluated on its predecessors' result. */
    @Test
    void batchEvaluatesConditionsInOrder() {
        ManualCluster c = new ManualCluster();
        c.submit(N1, c.cas(null, 1L), SimLevel.ANY);
        List<CasResult> a = c.submit(N1, c.cas(1L, 2L), SimLevel.ANY);
        List<CasResult> b = c.submit(N1, c.cas(1L, 3L), SimLevel.ANY);
        List<CasResult> d = c.submit(N1, c.cas(2L, 4L), SimLevel.QUORUM);
        c.deliverAll();
        assertThat(c.marks).containsKey(Mark.BATCHED);
        assertThat(a.get(0).outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(v(a.get(0))).isEqualTo(1L);
        assertThat(b.get(0).outcome()).isEqualTo(Outcome.NOT_APPLIED);
        assertThat(v(b.get(0))).isEqualTo(2L); // saw the batch's earlier update, not yet committed anywhere
        assertThat(d.get(0).outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(v(d.get(0))).isEqualTo(2L);
        assertThat(a.get(0).roundTrips()).isEqualTo(1);
        assertThat(d.get(0).roundTrips()).as("decided and applied by one round trip (§4.6.1)").isEqualTo(1);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(4L);
    }

    /** §8: the queue gauges count the requests waiting behind each partition's round in flight, as of the last tick. */
    @Test
    void queueGaugesCountRequestsWaitingBehindTheRoundInFlight() {
        ManualCluster c = new ManualCluster();
        CasCoordinator coordinator = c.coordinator(N1);
        for (long v = 1; v <= 3; v++) c.submit(N1, c.cas(null, v), SimLevel.ANY); // one in the round, two queued
        PaxosKey other = PaxosKey.of("other");
        for (long v = 1; v <= 2; v++)
            coordinator.submit(other, ManualCluster.ELECTORATE, c.cas(null, v), CommitLevel.ANY, c.nanos + 1_000_000_000L, WorkSlot.NONE, r -> { });
        assertThat(coordinator.queuedAtTick()).as("nothing counted before a tick").isZero();
        c.advance(Duration.ofMillis(1));
        assertThat(coordinator.queuedAtTick()).isEqualTo(3);
        assertThat(coordinator.queuedMaxAtTick()).isEqualTo(2);
        c.deliverAll();
        c.advance(Duration.ofMillis(1));
        assertThat(coordinator.queuedAtTick()).isZero();
        assertThat(coordinator.queuedMaxAtTick()).isZero();
    }

    /**
     * An idle partition's session (and held promise) is dropped once it has been idle for sessionIdle (10 s by
     * default), counted from its last activity: a session used again is not dropped on its first idle period's clock.
     */
    @Test
    void idleSessionsAreEvictedAfterTheirLastActivity() {
        ManualCluster c = new ManualCluster();
        CasCoordinator coordinator = c.coordinator(N1);
        assertThat(coordinator.quiet()).as("nothing submitted yet: ticks would do nothing").isTrue();
        c.submit(N1, c.cas(null, 1L), SimLevel.ANY);
        assertThat(coordinator.quiet()).as("a round in flight needs ticks (deadlines, retransmission)").isFalse();
        c.deliverAll();
        c.advance(Duration.ofMillis(10));
        assertThat(coordinator.sessions()).as("idle, within sessionIdle").isEqualTo(1);
        assertThat(coordinator.quiet()).as("an idle session waits for a tick to evict it").isFalse();
        c.advance(Duration.ofSeconds(6));
        c.submit(N1, c.cas(1L, 2L), SimLevel.ANY);
        c.deliverAll();
        c.advance(Duration.ofSeconds(6));
        assertThat(coordinator.sessions()).as("12 s after its first use, 6 s after its last").isEqualTo(1);
        c.advance(Duration.ofSeconds(5));
        assertThat(coordinator.sessions()).as("idle for longer than sessionIdle").isZero();
        assertThat(coordinator.quiet()).as("every session evicted: the shell may stop ticking").isTrue();
    }

    /** Beyond idleSessionsMax idle partitions, the longest idle are dropped first, long before sessionIdle. */
    @Test
    void theLongestIdleSessionsAreEvictedBeyondTheLimit() {
        ManualCluster c = new ManualCluster();
        c.idleSessionsMax = 2;
        CasCoordinator coordinator = c.coordinator(N1);
        for (int k = 0; k < 4; k++) {
            c.submit(N1, PaxosKey.of("k" + k), c.cas(null, 1L), SimLevel.ANY);
            c.deliverAll();
            c.advance(Duration.ofMillis(10));
        }
        assertThat(coordinator.sessions()).as("4 partitions served, 2 kept").isEqualTo(2);
        int fastBefore = c.marks.getOrDefault(Mark.FAST_PATH, 0);
        List<CasResult> again = c.submit(N1, PaxosKey.of("k3"), c.cas(1L, 2L), SimLevel.ANY);
        c.deliverAll();
        assertThat(again).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(c.marks.getOrDefault(Mark.FAST_PATH, 0)).as("the most recent partition kept its held promise").isEqualTo(fastBefore + 1);
    }

    /** §4.9: two coordinators collide; the loser backs off and retries on the winner's result. */
    @Test
    void contentionBacksOffAndRetries() {
        ManualCluster c = new ManualCluster();
        List<CasResult> one = c.submit(N1, c.cas(null, 1L), SimLevel.ANY);
        List<CasResult> two = c.submit(N2, c.cas(null, 2L), SimLevel.ANY);
        c.deliverAll();
        c.advance(Duration.ofMillis(20));
        c.deliverAll();
        assertThat(c.marks).containsKey(Mark.CONTENTION);
        assertThat(two).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(one).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(x)).isEqualTo(2L);
            assertThat(x.contentions()).isPositive();
        });
    }

    /**
     * §4.2.5: our replica keeps its promise in memory, so the proposal goes to the other replicas only once ours has
     * accepted it durably, even at ANY, where nothing waits for a remote replica's apply.
     */
    @Test
    void aPromiseKeptInMemoryHoldsTheProposalBackUntilOurReplicaAccepts() {
        ManualCluster c = new ManualCluster();
        List<CasResult> write = c.submit(N1, c.set(5), SimLevel.ANY);
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        assertThat(c.stores.get(N1).load(ManualCluster.KEY).promised().isZero()).as("our replica's promise is in memory").isTrue();
        assertThat(c.stores.get(N2).load(ManualCluster.KEY).promised().isZero()).as("a remote replica's is durable").isFalse();
        assertThat(c.inFlight).as("only our replica has the proposal").singleElement().matches(to(N1).and(is(Propose.class)));
        c.deliver(to(N1).and(is(Propose.class)).or(to(N1).and(is(Accepted.class))));
        assertThat(c.stores.get(N1).load(ManualCluster.KEY).accepted()).as("accepted with its promise, durably").isNotNull();
        assertThat(c.inFlight).as("then the others").filteredOn(is(Propose.class)).extracting(ManualCluster.Envelope::to)
                .containsExactlyInAnyOrder(N2, N3);
        c.deliverAll();
        assertThat(write).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
    }

    /** §4.2.5: a crash before our replica accepted takes its promise, and leaves nothing of the ballot anywhere. */
    @Test
    void aCrashBeforeOurReplicaAcceptsLeavesNothingOfTheBallot() {
        ManualCluster c = new ManualCluster();
        List<CasResult> lost = c.submit(N1, c.set(5), SimLevel.ANY);
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.crash(N1, 1);
        assertThat(c.stores.get(N1).load(ManualCluster.KEY).promised().isZero()).as("the crash took the promise").isTrue();
        assertThat(c.inFlight).as("no proposal of the ballot left n1").noneMatch(is(Propose.class));
        List<CasResult> next = c.submit(N1, c.cas(null, 6L), SimLevel.QUORUM);
        c.deliverAll();
        assertThat(lost).as("the crashed coordinator's request gets no answer").isEmpty();
        assertThat(next).singleElement().satisfies(x -> assertThat(x.outcome()).isEqualTo(Outcome.APPLIED));
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(6L);
    }

    /**
     * §4.2.5: our replica promised a later ballot to another coordinator before our proposal reached it, and refuses
     * it: the other replicas are never sent it (it may be promised in memory only), and the request runs again.
     */
    @Test
    void ourReplicasRefusalWithholdsTheProposalFromTheOthers() {
        ManualCluster c = new ManualCluster();
        List<CasResult> write = c.submit(N1, c.set(5), SimLevel.QUORUM);
        c.deliver(requestsFrom(N1).and(is(Prepare.class)).or(repliesTo(N1).and(is(Promise.class))));
        List<CasResult> read = c.submit(N2, c.read(), SimLevel.ANY);
        c.deliver(requestsFrom(N2).or(repliesTo(N2)));
        assertThat(read).singleElement().satisfies(x -> assertThat(v(x)).isNull());
        c.deliver(to(N1).and(is(Propose.class)).or(repliesTo(N1)));
        assertThat(c.marks).containsKey(Mark.OWN_REFUSAL_WITHHELD_PROPOSAL);
        assertThat(c.marks).doesNotContainKey(Mark.PROPOSAL_IN_DOUBT);
        assertThat(c.inFlight).as("nothing of the refused ballot is in flight").isEmpty();
        c.advance(Duration.ofMillis(20));
        c.deliverAll();
        assertThat(write).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(5L);
    }

    /**
     * §4.2.5: a checked proposal our replica refuses as stale (a plain write reached it since) must be finished by the
     * others. The replay waits for our replica's vote and is refused, so the next prepare asks for a durable promise,
     * and that round's replay goes to every replica at once, as it did before promises were kept in memory.
     */
    @Test
    void aReplayOurReplicaRefusesIsFinishedByTheOthersAfterADurablePrepare() {
        ManualCluster c = new ManualCluster();
        orphanedFastProposal(c, N2, N1); // n2 and n3 still have the versions n2's held promise expects

        List<CasResult> read = c.submit(N1, c.read(), SimLevel.QUORUM);
        for (int i = 0; i < 10 && read.isEmpty(); i++) {
            c.deliver(e -> true, 200); // bounded: the replay could be refused round after round
            c.advance(Duration.ofMillis(20));
        }
        assertThat(c.marks.get(Mark.OWN_REFUSAL_WITHHELD_PROPOSAL)).as("our replica refused the first replay once").isEqualTo(1);
        assertThat(c.marks.get(Mark.PREPARE_FOUND_INCOMPLETE)).as("found by both prepares").isEqualTo(2);
        assertThat(read).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(x)).isEqualTo(2L); // the replay was decided by n2 and n3
        });
    }

    /**
     * §4.2.5: our replica does not vote within a retransmission interval (a slow or failing disk): the others never get
     * the proposal, which stays in doubt, and the next prepare, durable this time, settles it.
     */
    @Test
    void anOverdueVoteOfOurReplicaLeavesTheProposalInDoubtUntilADurablePrepare() {
        ManualCluster c = new ManualCluster();
        List<CasResult> write = c.submit(N1, c.set(5), SimLevel.QUORUM);
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.advance(Duration.ofMillis(60)); // n1's proposal to its own replica is still in flight
        assertThat(c.marks).containsKeys(Mark.OWN_VOTE_OVERDUE, Mark.PROPOSAL_IN_DOUBT);
        assertThat(c.inFlight).filteredOn(is(Propose.class)).as("the others were never sent it")
                .singleElement().matches(to(N1));
        c.deliverAll(); // our replica accepts it late; the durable prepare finds it and finishes it
        assertThat(c.marks).containsKey(Mark.IN_DOUBT_RESOLVED_APPLIED);
        assertThat(write).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(5L);
    }

    /** §4.10: our proposal lost to a later ballot after one replica accepted it; the next prepare finds and finishes it. */
    @Test
    void inDoubtProposalFoundAndFinishedIsApplied() {
        ManualCluster c = new ManualCluster();
        List<CasResult> write = c.submit(N1, c.set(5), SimLevel.QUORUM);
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.deliver(is(Propose.class).and(to(N1)).or(is(Accepted.class)));
        List<CasResult> read = c.submit(N2, c.read(), SimLevel.ANY);
        c.drop(is(Prepare.class).and(from(N2)).and(to(N1)));
        c.deliver(requestsFrom(N2).or(repliesTo(N2)));
        c.deliverAll(); // n2 and n3 now refuse n1's proposal
        assertThat(c.marks).containsKey(Mark.PROPOSAL_IN_DOUBT);
        assertThat(read).singleElement().satisfies(x -> assertThat(v(x)).isNull());
        assertThat(write).isEmpty();
        c.advance(Duration.ofMillis(20));
        c.deliverAll();
        assertThat(c.marks).containsKey(Mark.IN_DOUBT_RESOLVED_APPLIED);
        assertThat(write).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        for (var n : ManualCluster.ELECTORATE.voters()) assertThat(c.storedV(n)).isEqualTo(5L);
    }

    /**
     * §4.10: our proposal lost to a later ballot with no trace of it anywhere: it is not decided, and once the next
     * round decides a later ballot it never can be, so the request runs again instead of being answered UNKNOWN.
     */
    @Test
    void inDoubtProposalNobodyHoldsRunsAgain() {
        ManualCluster c = new ManualCluster();
        // Not a replica, n4 sends its proposal to all three at once: none holds it back for its own replica's vote.
        List<CasResult> write = c.submit(N4, c.cas(null, 5L), SimLevel.ANY);
        c.deliver(is(Prepare.class).or(is(Promise.class)));       // n4's proposal is now in flight
        List<CasResult> other = c.submit(N2, c.cas(null, 6L), SimLevel.ANY);
        c.drop(is(Prepare.class).and(from(N2)).and(to(N1)));
        c.deliver(from(N2).and(is(Prepare.class)).or(to(N2).and(is(Promise.class))));
        c.deliver(from(N2).and(is(Propose.class)).and(to(N2)));  // n2 accepts n2's proposal; nothing else of it arrives
        c.drop(from(N2).or(to(N2).and(is(Accepted.class))));
        c.restartCoordinator(N2, 1);
        c.drop(is(Propose.class).and(to(N1)));                    // n1 never sees n4's proposal
        c.deliverAll();                                           // n2 and n3 refuse it: in doubt
        assertThat(c.marks).containsKey(Mark.PROPOSAL_IN_DOUBT);
        assertThat(other).isEmpty();
        c.advance(Duration.ofMillis(20));
        c.deliverAll();
        c.advance(Duration.ofMillis(20));
        c.deliverAll();
        assertThat(c.marks).containsKeys(Mark.IN_DOUBT_RESOLVED_NOT_APPLIED, Mark.PREPARE_FOUND_INCOMPLETE);
        assertThat(write).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.NOT_APPLIED);
            assertThat(v(x)).isEqualTo(6L); // n2's proposal was finished first; ours ran again after it
        });
    }

    /**
     * §4.8: a held promise answers a query that reads less than the round that left it (a transaction's finish after
     * its placement), from that round's state: the second request goes fast, without a prepare or a read.
     */
    @Test
    void aNarrowerQueryGoesFastOnTheHeldPromise() {
        ManualCluster c = new ManualCluster();
        c.plainWrite(7, N1, N2, N3);
        List<CasResult> first = c.submit(N4, c.cas(null, 1L), SimLevel.QUORUM);
        c.deliverAll();
        assertThat(first).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        int prepares = c.marks.getOrDefault(Mark.PREPARE, 0);
        List<CasResult> second = c.submit(N4, new SimRequest(LinearizabilityChecker.Kind.CAS, 1L, 2L, SimRow.REGISTER), SimLevel.QUORUM);
        c.deliverAll();
        assertThat(second).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.APPLIED);
            assertThat(r.fastPath()).isTrue();
        });
        assertThat(c.marks.getOrDefault(Mark.PREPARE, 0)).isEqualTo(prepares);
        assertThat(c.marks).doesNotContainKey(Mark.FAST_PATH_QUERY_MISS);
        assertThat(List.of(N1, N2, N3)).allSatisfy(n -> assertThat(c.storedV(n)).isEqualTo(2L));
    }

    /** §4.6: a commit left to ride on the next fast proposal is sent at once when the next round has to prepare. */
    @Test
    void deferredCommitIsSentWhenTheNextRoundIsNotFast() {
        ManualCluster c = new ManualCluster();
        // Not a replica, n4 proposes to all three at once: none applies it on acceptance, all need the commit.
        // The first reads the register only, so the held promise cannot answer the second's wider read.
        List<CasResult> first = c.submit(N4, new SimRequest(LinearizabilityChecker.Kind.CAS, null, 1L, SimRow.REGISTER), SimLevel.ANY);
        c.deliver(is(Prepare.class).or(is(Promise.class)));
        c.submit(N4, c.read(), SimLevel.ANY);
        c.deliver(is(Propose.class).or(is(Accepted.class)));
        assertThat(first).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        assertThat(c.marks).containsKeys(Mark.COMMIT_PIGGYBACKED, Mark.FAST_PATH_QUERY_MISS);
        assertThat(c.inFlight).filteredOn(is(ballot.paxos.message.Commit.class)::test)
                .extracting(ManualCluster.Envelope::to).containsExactlyInAnyOrder(N1, N2, N3);
    }

    /**
     * §4.6: a LOCAL_SERIAL round whose data center holds one replica. Its acceptance decides, but the other data
     * centers' replicas (learners) never vote: they get the commit, and the decree is pruned once they applied it.
     */
    @Test
    void aSingleVoterWithLearnersCommitsToTheLearners() {
        ManualCluster c = new ManualCluster();
        Electorate local = new Electorate(List.of(N1), List.of(N2, N3));
        List<CasResult> out = new ArrayList<>();
        c.coordinator(N1).submit(ManualCluster.KEY, local, c.cas(null, 1L), CommitLevel.of(1, List.of(N1)),
                c.nanos + 1_000_000_000L, WorkSlot.NONE, out::add);
        assertThat(c.inFlight).filteredOn(requestsFrom(N1)::test).extracting(ManualCluster.Envelope::to).containsOnly(N1);
        c.deliverAll();
        assertThat(out).singleElement().extracting(CasResult::outcome).isEqualTo(Outcome.APPLIED);
        for (var n : List.of(N1, N2, N3)) assertThat(c.storedV(n)).isEqualTo(1L);
        assertThat(c.marks).containsKey(Mark.PRUNE);
    }
}

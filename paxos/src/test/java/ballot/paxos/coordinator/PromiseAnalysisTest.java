package ballot.paxos.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.coordinator.PromiseAnalysis.InDoubtFate;
import ballot.paxos.message.Promise;
import ballot.paxos.spi.LocalRead;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a set of promises requires (docs/paxos.md §4.3, §4.10, §5.7). */
class PromiseAnalysisTest {
    private static final PaxosKey KEY = PaxosKey.of("k");
    private static final NodeId N1 = NodeId.of(1), N2 = NodeId.of(2), N3 = NodeId.of(3);
    private static final Electorate ELECTORATE = Electorate.of(N1, N2, N3);
    private static final Ballot PREPARED = ballot(1_000);
    private static final Bytes X = Bytes.utf8("x");

    private static Ballot ballot(long micros) {
        return new Ballot(micros, 0, 5, 0);
    }

    private static Decree decree(long micros) {
        return new Decree(ballot(micros), ballot(micros), List.of(X));
    }

    private static Proposal proposal(long micros, Decree predecessor, Map<NodeId, Long> expected) {
        return new Proposal(ballot(micros), ballot(micros), List.of(X), predecessor, expected);
    }

    private static Promise promise(Proposal accepted, Decree committed, long version) {
        RecentDecrees recent = committed.ballot().isZero() ? RecentDecrees.NONE : RecentDecrees.NONE.with(committed);
        return new Promise(KEY, PREPARED, accepted, committed, recent, new LocalRead(List.of(), version));
    }

    private static Map<NodeId, Promise> promises(Promise p1, Promise p2) {
        Map<NodeId, Promise> m = new LinkedHashMap<>();
        m.put(N1, p1);
        m.put(N2, p2);
        return m;
    }

    /** §4.3.1: the latest committed decree becomes the predecessor; replicas that missed it are noticed. */
    @Test
    void latestCommitIsTheHighestCommitted() {
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(null, decree(10), 0), promise(null, decree(20), 0)), null);
        assertThat(a.latest()).isEqualTo(decree(20));
        assertThat(a.someStale()).isTrue();
        assertThat(a.replay()).isNull();
    }

    /** §4.3.2: the highest accepted proposal after the latest commit is finished first. */
    @Test
    void highestAcceptedAfterLatestCommitIsReplayed() {
        Proposal older = proposal(30, decree(20), null);
        Proposal newer = proposal(40, decree(20), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(older, decree(20), 0), promise(newer, decree(20), 0)), null);
        assertThat(a.replay()).isEqualTo(newer);
    }

    /** §4.3.2: an accepted proposal at or before the latest commit is settled and ignored. */
    @Test
    void acceptedBeforeLatestCommitIsIgnored() {
        Proposal stale = proposal(15, decree(10), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(stale, decree(10), 0), promise(null, decree(20), 0)), null);
        assertThat(a.replay()).isNull();
    }

    /** §4.3.2.3: an empty incomplete proposal changes nothing and needs no finishing. */
    @Test
    void emptyIncompleteProposalIsNotReplayed() {
        Proposal empty = new Proposal(ballot(30), ballot(30), List.of(), decree(20), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(empty, decree(20), 0), promise(null, decree(20), 0)), null);
        assertThat(a.replay()).isNull();
    }

    /** §5.7.3: a checked proposal refused forever by a blocking number of promisers is skipped, not finished. */
    @Test
    void deadCheckedProposalIsSkippedForTheNextCandidate() {
        Proposal unchecked = proposal(30, decree(20), null);
        Proposal checked = proposal(40, decree(20), Map.of(N1, 0L, N2, 0L, N3, 0L));
        Map<NodeId, Promise> all = new LinkedHashMap<>();
        all.put(N1, promise(checked, decree(20), 0)); // holds it
        all.put(N2, promise(unchecked, decree(20), 1)); // a plain write since the cached read
        all.put(N3, promise(null, decree(20), 1));
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, all, null);
        assertThat(a.dead()).containsExactly(ballot(40));
        assertThat(a.replay()).isEqualTo(unchecked);
    }

    /** §5.7.2: a checked proposal that a quorum could still accept may be decided, so it is finished. */
    @Test
    void checkedProposalThatMayBeDecidedIsReplayed() {
        Proposal checked = proposal(40, decree(20), Map.of(N1, 0L, N2, 0L, N3, 0L));
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(checked, decree(20), 0), promise(null, decree(20), 1)), null);
        assertThat(a.dead()).isEmpty();
        assertThat(a.replay()).isEqualTo(checked);
    }

    /** §4.10: an in-doubt proposal committed somewhere is applied. */
    @Test
    void inDoubtCommittedSomewhereIsApplied() {
        Proposal mine = proposal(30, decree(20), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(null, mine.toDecree(), 0), promise(null, decree(20), 0)), mine);
        assertThat(a.inDoubtFate()).isEqualTo(InDoubtFate.APPLIED);
        assertThat(a.inDoubtDecree()).isEqualTo(mine.toDecree());
    }

    /** §4.10: an in-doubt proposal a replica remembers applying is applied, even after later decrees. */
    @Test
    void inDoubtRememberedInRecentDecreesIsApplied() {
        Proposal mine = proposal(30, decree(20), null);
        RecentDecrees recent = RecentDecrees.NONE.with(mine.toDecree()).with(decree(40));
        Promise remembers = new Promise(KEY, PREPARED, null, decree(40), recent, new LocalRead(List.of(), 0));
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(remembers, promise(null, decree(40), 0)), mine);
        assertThat(a.inDoubtFate()).isEqualTo(InDoubtFate.APPLIED);
    }

    /** §4.10: the in-doubt proposal is the one to finish: its fate is this round's. */
    @Test
    void inDoubtThatIsTheIncompleteProposalIsReplaying() {
        Proposal mine = proposal(30, decree(20), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(mine, decree(20), 0), promise(null, decree(20), 0)), mine);
        assertThat(a.inDoubtFate()).isEqualTo(InDoubtFate.REPLAYING);
    }

    /** §4.10: invisible and superseded by a decided later decree: it can never take effect. */
    @Test
    void invisibleInDoubtWithLaterDecreeIsNotApplied() {
        Proposal mine = proposal(30, decree(20), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(null, decree(40), 0), promise(null, decree(40), 0)), mine);
        assertThat(a.inDoubtFate()).isEqualTo(InDoubtFate.NOT_APPLIED);
    }

    /** §4.10: invisible with nothing decided after it: not applied once this round decides a later ballot. */
    @Test
    void invisibleInDoubtWithoutLaterDecreeNeedsADecision() {
        Proposal mine = proposal(30, decree(20), null);
        Proposal other = proposal(35, decree(20), null);
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(promise(other, decree(20), 0), promise(null, decree(20), 0)), mine);
        assertThat(a.inDoubtFate()).isEqualTo(InDoubtFate.NOT_APPLIED_ONCE_DECIDED);
    }

    /** §4.10: when a replica forgot decrees since the proposal's ballot, nothing can be proven. */
    @Test
    void inDoubtBeyondWhatReplicasRememberIsUnknown() {
        Proposal mine = proposal(30, decree(20), null);
        RecentDecrees forgotten = RecentDecrees.NONE;
        for (int i = 1; i <= RecentDecrees.SIZE_MAX + 1; i++) forgotten = forgotten.with(decree(30 + i));
        assertThat(forgotten.covers(ballot(30))).isFalse();
        Promise p1 = new Promise(KEY, PREPARED, null, decree(40), forgotten, new LocalRead(List.of(), 0));
        PromiseAnalysis a = PromiseAnalysis.of(ELECTORATE, promises(p1, promise(null, decree(40), 0)), mine);
        assertThat(a.inDoubtFate()).isEqualTo(InDoubtFate.UNKNOWN);
    }
}

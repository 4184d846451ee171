package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cluster.GossipRules.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The merge and exchange rules of docs/membership.md §2. */
class GossipRulesTest {
    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);
    private static final UUID C = new UUID(0, 3);

    /** A complete state of {@code id}, every value at version 1..6, heartbeat {@code heartbeat}. */
    static EndpointState complete(UUID id, int generation, int heartbeat) {
        return new EndpointState(id, generation, heartbeat, Map.of())
                .with(AppState.STATUS, "NORMAL", 1)
                .with(AppState.TOKENS, "1,2", 2)
                .with(AppState.INTERNODE, "127.0.0.1:7000", 3)
                .with(AppState.NATIVE, "127.0.0.1:9042", 4)
                .with(AppState.DC, "dc1", 5)
                .with(AppState.RACK, "r1", 6);
    }

    @Test
    void unknownNodeIsTakenWhenComplete() {
        GossipRules.Merge merge = GossipRules.merge(null, complete(A, 10, 7));
        assertThat(merge.outcome()).isEqualTo(Outcome.NEW);
        assertThat(merge.merged()).isEqualTo(complete(A, 10, 7));
    }

    @Test
    void deltaOfAnUnknownNodeIsIgnoredSoThatTheWholeStateIsAskedFor() {
        EndpointState delta = complete(A, 10, 7).above(5);
        assertThat(GossipRules.merge(null, delta).outcome()).isEqualTo(Outcome.UNCHANGED);
    }

    @Test
    void higherGenerationReplacesTheWholeState() {
        EndpointState old = complete(A, 10, 50).with(AppState.SCHEMA, "s", 40).with(AppState.SHUTDOWN, "true", 51);
        EndpointState restarted = complete(A, 11, 1);
        GossipRules.Merge merge = GossipRules.merge(old, restarted);
        assertThat(merge.outcome()).isEqualTo(Outcome.RESTARTED);
        assertThat(merge.merged()).isEqualTo(restarted);
        assertThat(merge.merged().get(AppState.SHUTDOWN)).isNull();
    }

    @Test
    void lowerGenerationIsIgnored() {
        EndpointState current = complete(A, 11, 1);
        assertThat(GossipRules.merge(current, complete(A, 10, 99)).outcome()).isEqualTo(Outcome.UNCHANGED);
    }

    @Test
    void generationMoreThanAYearAheadIsRefused() {
        EndpointState current = complete(A, 1_700_000_000, 1);
        GossipRules.Merge merge = GossipRules.merge(current, complete(A, 1_700_000_000 + GossipRules.GENERATION_DIFFERENCE_MAX + 1, 1));
        assertThat(merge.outcome()).isEqualTo(Outcome.REFUSED);
        assertThat(merge.merged()).isEqualTo(current);
    }

    @Test
    void sameGenerationTakesNewerValuesKeyByKey() {
        EndpointState local = complete(A, 10, 8).with(AppState.SCHEMA, "s1", 7);
        EndpointState remote = new EndpointState(A, 10, 9, Map.of())
                .with(AppState.SCHEMA, "s2", 9)
                .with(AppState.STATUS, "LEAVING", 0); // older than ours: ignored
        GossipRules.Merge merge = GossipRules.merge(local, remote);
        assertThat(merge.outcome()).isEqualTo(Outcome.UPDATED);
        assertThat(merge.merged().get(AppState.SCHEMA)).isEqualTo("s2");
        assertThat(merge.merged().get(AppState.STATUS)).isEqualTo("NORMAL");
        assertThat(merge.merged().heartbeat()).isEqualTo(9);
        assertThat(merge.heartbeatAdvanced()).isTrue();
        assertThat(merge.changedKeys()).containsExactly(AppState.SCHEMA.key);
    }

    @Test
    void nothingNewerIsUnchanged() {
        EndpointState local = complete(A, 10, 8);
        assertThat(GossipRules.merge(local, local).outcome()).isEqualTo(Outcome.UNCHANGED);
        assertThat(GossipRules.merge(local, local.above(3)).outcome()).isEqualTo(Outcome.UNCHANGED);
    }

    @Test
    void unknownKeysAreKeptAndRelayed() {
        EndpointState remote = complete(A, 10, 8).with(AppState.SCHEMA, "s", 7);
        Map<Integer, VersionedValue> withFuture = new HashMap<>(remote.states());
        withFuture.put(999, new VersionedValue("from a newer version", 9));
        EndpointState future = new EndpointState(A, 10, 8, withFuture);
        GossipRules.Merge merge = GossipRules.merge(remote, future);
        assertThat(merge.merged().states()).containsKey(999);
        assertThat(GossipRules.examine(Map.of(A, merge.merged()), List.of(new GossipDigest(A, 10, 8))).states())
                .singleElement().satisfies(delta -> assertThat(delta.states()).containsOnlyKeys(999));
    }

    /** Merging is idempotent, commutative and associative: any delivery order, with losses made up and duplicates, ends in the owner's state. */
    @Test
    void anyOrderOfDeltasConvergesToTheOwnersState() {
        Random random = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            List<EndpointState> history = new ArrayList<>();
            EndpointState owner = complete(A, 10, 6);
            history.add(owner);
            int version = 6;
            for (int step = 0; step < 20; step++) {
                AppState key = List.of(AppState.SCHEMA, AppState.LOAD, AppState.STATUS).get(random.nextInt(3));
                owner = random.nextBoolean() ? owner.with(key, "v" + step, ++version) : owner.withHeartbeat(++version);
                history.add(random.nextBoolean() ? owner : owner.above(random.nextInt(version)));
            }
            history.add(owner.above(0)); // what a later round would deliver
            List<EndpointState> delivered = new ArrayList<>(history);
            delivered.addAll(history.subList(0, random.nextInt(history.size()))); // duplicates
            Collections.shuffle(delivered, random);
            EndpointState seen = null;
            for (EndpointState message : delivered) {
                EndpointState candidate = seen == null && !message.states().keySet().containsAll(GossipRules.REQUIRED) ? null : message;
                if (candidate == null) continue;
                seen = GossipRules.merge(seen, candidate).merged();
            }
            assertThat(seen).as("trial %d", trial).isEqualTo(owner);
        }
    }

    @Test
    void synIsAnsweredWithNewerStatesAndRequestsForOlderOnes() {
        EndpointState a = complete(A, 10, 20);
        EndpointState b = complete(B, 10, 5);
        EndpointState c = complete(C, 10, 9);
        Map<UUID, EndpointState> local = Map.of(A, a, B, b, C, c);
        UUID unknown = new UUID(0, 4);
        GossipRules.Examination examination = GossipRules.examine(local, List.of(
                new GossipDigest(A, 10, 15), // we are newer: delta above 15
                new GossipDigest(B, 10, 30), // they are newer: ask above our 6
                new GossipDigest(unknown, 3, 8))); // unknown to us: ask for everything
        assertThat(examination.states()).containsExactlyInAnyOrder(a.above(15), c); // C was not listed: all of it
        assertThat(examination.requests()).containsExactlyInAnyOrder(new GossipDigest(B, 10, 6), new GossipDigest(unknown, 3, -1));
    }

    @Test
    void olderGenerationInTheSynGetsTheWholeState() {
        EndpointState a = complete(A, 11, 2);
        GossipRules.Examination examination = GossipRules.examine(Map.of(A, a), List.of(new GossipDigest(A, 10, 99)));
        assertThat(examination.states()).containsExactly(a);
        assertThat(examination.requests()).isEmpty();
    }

    @Test
    void shadowSynGetsEverythingAndGivesNothing() {
        Map<UUID, EndpointState> local = Map.of(A, complete(A, 10, 1), B, complete(B, 10, 1));
        GossipRules.Examination examination = GossipRules.examine(local, List.of());
        assertThat(examination.states()).containsExactlyInAnyOrderElementsOf(local.values());
        assertThat(examination.requests()).isEmpty();
    }

    @Test
    void requestsAreAnsweredWithDeltasOrWholeStates() {
        EndpointState a = complete(A, 10, 20);
        EndpointState b = complete(B, 12, 3);
        Map<UUID, EndpointState> local = Map.of(A, a, B, b);
        List<EndpointState> answer = GossipRules.answer(local, List.of(
                new GossipDigest(A, 10, 4), new GossipDigest(B, 11, 7), new GossipDigest(C, 1, -1), new GossipDigest(A, 11, 0)));
        assertThat(answer).containsExactly(a.above(4), b);
    }
}

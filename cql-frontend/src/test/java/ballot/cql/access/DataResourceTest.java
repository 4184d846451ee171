package ballot.cql.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DataResourceTest {
    @Test
    void namesAreCassandrasAndReadBack() {
        for (DataResource r : new DataResource[] {DataResource.ALL_KEYSPACES, DataResource.keyspace("ks"), DataResource.table("ks", "t")})
            assertThat(DataResource.fromName(r.name())).isEqualTo(r);
        assertThat(DataResource.ALL_KEYSPACES.name()).isEqualTo("data");
        assertThat(DataResource.keyspace("ks").name()).isEqualTo("data/ks");
        assertThat(DataResource.table("ks", "t").name()).isEqualTo("data/ks/t");
    }

    @Test
    void refusesNamesThatAreNotDataResources() {
        for (String bad : new String[] {"roles/alice", "data/", "data//t", "data/ks/t/x", ""})
            assertThatThrownBy(() -> DataResource.fromName(bad)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad);
        assertThatThrownBy(() -> new DataResource(null, "t")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void printsAsCassandraInErrorsAndLists() {
        assertThat(DataResource.ALL_KEYSPACES).hasToString("<all keyspaces>");
        assertThat(DataResource.keyspace("ks")).hasToString("<keyspace ks>");
        assertThat(DataResource.table("ks", "t")).hasToString("<table ks.t>");
    }

    @Test
    void aTableLiesBelowItsKeyspaceBelowAllKeyspaces() {
        DataResource table = DataResource.table("ks", "t");
        assertThat(table.chain()).containsExactly(table, DataResource.keyspace("ks"), DataResource.ALL_KEYSPACES);
        assertThat(DataResource.ALL_KEYSPACES.chain()).containsExactly(DataResource.ALL_KEYSPACES);
        assertThat(DataResource.keyspace("ks").covers(table)).isTrue();
        assertThat(DataResource.keyspace("ks").covers(DataResource.table("ks2", "t"))).isFalse();
        assertThat(table.covers(DataResource.keyspace("ks"))).isFalse();
    }

    @Test
    void aTableTakesNoCreateAndDataNoDescribe() {
        assertThat(DataResource.table("ks", "t").applicablePermissions())
                .containsExactly(Permission.ALTER, Permission.DROP, Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE);
        assertThat(DataResource.keyspace("ks").applicablePermissions()).containsExactly(Permission.CREATE, Permission.ALTER,
                Permission.DROP, Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE);
        assertThat(DataResource.ALL_KEYSPACES.applicablePermissions()).isEqualTo(DataResource.keyspace("ks").applicablePermissions());
    }

    @Test
    void rolesAreResourcesOfTheirOwnKind() {
        RoleResource bob = RoleResource.of("bob");
        assertThat(Resource.fromName("roles/bob")).isEqualTo(bob);
        assertThat(Resource.fromName("roles")).isEqualTo(RoleResource.ALL_ROLES);
        assertThat(Resource.fromName("data/ks")).isEqualTo(DataResource.keyspace("ks"));
        assertThatThrownBy(() -> Resource.fromName("roles/")).isInstanceOf(IllegalArgumentException.class);
        assertThat(bob).hasToString("<role bob>");
        assertThat(RoleResource.ALL_ROLES).hasToString("<all roles>");
        assertThat(bob.chain()).containsExactly(bob, RoleResource.ALL_ROLES);
        assertThat(bob.applicablePermissions()).containsExactly(Permission.ALTER, Permission.DROP, Permission.AUTHORIZE);
        assertThat(RoleResource.ALL_ROLES.applicablePermissions()).containsExactly(Permission.CREATE, Permission.ALTER, Permission.DROP,
                Permission.AUTHORIZE, Permission.DESCRIBE);
        assertThat(DataResource.ALL_KEYSPACES.covers(bob)).isFalse();
    }

    @Test
    void permissionsAreNamedInAnyCase() {
        assertThat(Permission.named("select")).isEqualTo(Permission.SELECT);
        assertThat(Permission.named("Authorize")).isEqualTo(Permission.AUTHORIZE);
        assertThat(Permission.named("execute")).isNull();
    }
}

package ballot.cql.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a permission is granted on, as in Cassandra: data ({@link DataResource}) or roles ({@link RoleResource}). Each
 * kind is a hierarchy: a permission granted on a resource holds on every one below it.
 */
public sealed interface Resource permits DataResource, RoleResource {
    /** Cassandra's stored name: {@code data/ks/t}, {@code roles/r}. */
    String name();

    /** The resource directly above this one; null at the top of its kind. */
    Resource parent();

    /** The permissions that mean something on this resource: what {@code ALL PERMISSIONS} grants. */
    Set<Permission> applicablePermissions();

    /** This resource and every one above it, nearest first: where a permission on it may have been granted. */
    default List<Resource> chain() {
        List<Resource> chain = new ArrayList<>(3);
        for (Resource r = this; r != null; r = r.parent()) chain.add(r);
        return chain;
    }

    /** Whether {@code other} is this resource or lies below it. */
    default boolean covers(Resource other) {
        return other.chain().contains(this);
    }

    /** The resource stored as {@code name}; IllegalArgumentException for a name of no resource Ballot has. */
    static Resource fromName(String name) {
        return name.startsWith(RoleResource.ROOT_NAME) ? RoleResource.fromName(name) : DataResource.fromName(name);
    }
}

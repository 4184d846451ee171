package ballot.cql.statement;

import ballot.cql.parse.Parser;
import ballot.cql.parse.Statement;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import java.util.Map;
import java.util.UUID;

/** Builds table definitions from CQL text, for the tables the node itself defines (system tables). */
public final class SchemaDefinitions {
    private SchemaDefinitions() {}

    /** The table {@code createTable} defines in {@code keyspace}, with the given id and no user types. */
    public static TableMetadata table(String keyspace, String createTable, UUID id) {
        Statement.CreateTable s = (Statement.CreateTable) Parser.parse(createTable).statement();
        KeyspaceMetadata ks = new KeyspaceMetadata(keyspace, Map.of("class", "org.apache.cassandra.locator.LocalStrategy"), true, Map.of(), Map.of());
        return TableStatements.build(s, ks, id);
    }
}

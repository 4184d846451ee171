/**
 * Server-side DESCRIBE, as Cassandra 4.0+ answers it. cqlsh 6 sends every DESCRIBE to a server whose release_version
 * is 4 or later and only formats the rows, so the text here is what users see. The reference is Cassandra 5.0's
 * {@code cql3/statements/DescribeStatement.java} and {@code TableMetadata/KeyspaceMetadata/UserType.toCqlString},
 * checked against a real 5.0.9 node (research notes: system-tables.md §3.3).
 *
 * <h2>Results</h2>
 * <ul>
 *   <li>Every column is text and comes from table {@code system.describe}. Listings (KEYSPACES, TABLES, TYPES,
 *       FUNCTIONS, AGGREGATES) return {@code keyspace_name, type, name}; the other forms add {@code create_statement}.
 *       DESCRIBE CLUSTER returns {@code cluster, partitioner, snitch}, plus {@code range_ownership} when a
 *       non-system keyspace is in use.</li>
 *   <li>Names are quoted only when CQL needs it; {@code type} is lower case ({@code keyspace}, {@code table},
 *       {@code type}, ...).</li>
 *   <li>Keyspaces (including system and virtual ones) and the elements inside each are ordered by name,
 *       case-insensitively. DESCRIBE KEYSPACE gives the keyspace, its types (each after the types it uses), then each
 *       table. The listings cover the keyspace in use, or every keyspace when none is.</li>
 *   <li>Names are resolved when the statement runs, and errors are Cassandra's, all InvalidRequest (0x2200):
 *       {@code 'x' not found in keyspaces}, {@code Table 'x' not found in keyspace 'ks'}, {@code 'x' not found in
 *       keyspace 'ks'}, {@code No keyspace specified and no current keyspace}, ...</li>
 *   <li>Paging is by row offset within the page size; the paging state also carries the schema version, and a state
 *       from another version is refused (the rows would have shifted).</li>
 * </ul>
 *
 * <h2>Create statements</h2>
 * <ul>
 *   <li>Keyspace: {@code CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', ...}  AND
 *       durable_writes = true;}. There are two spaces before AND, strategies of {@code org.apache.cassandra.locator}
 *       go by simple name, and the other options are sorted.</li>
 *   <li>Table: four-space indentation. Columns come in partition key order, then clustering order, then static and
 *       then regular columns, with single-cell before multi-cell columns in each group, by name. A sole partition key
 *       column with no clustering gets {@code PRIMARY KEY} inline. Then {@code ) WITH CLUSTERING ORDER BY (...)} if
 *       the table has clustering columns, and every table option with its effective value, in Cassandra 5.0's order
 *       (alphabetical except that memtable precedes crc_check_chance).</li>
 *   <li>Tables and keyspaces of the virtual keyspaces system_views and system_virtual_schema are wrapped in a
 *       warning comment. Their structure is shown as {@code VIRTUAL TABLE}, with comment as the only option.</li>
 *   <li>WITH INTERNALS adds {@code ID = <uuid>} as the first table option. Dropped columns are listed among the
 *       columns, and each is followed by an {@code ALTER TABLE ... DROP c USING TIMESTAMP t;} line.</li>
 * </ul>
 */
package ballot.cql.describe;

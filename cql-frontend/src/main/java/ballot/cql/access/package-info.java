/**
 * The vocabulary of authorization, shared by the parser, the statements and the authorizer: {@link
 * ballot.cql.access.Permission}, {@link ballot.cql.access.Resource} ({@link ballot.cql.access.DataResource}, {@link
 * ballot.cql.access.RoleResource}) and {@link ballot.cql.access.Access}. It
 * depends on nothing else of the node.
 */
package ballot.cql.access;

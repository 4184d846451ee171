package ballot.cql.parse;

import ballot.cql.access.DataResource;
import ballot.cql.access.Permission;
import ballot.cql.access.RoleResource;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.SyntaxException;
import ballot.cql.parse.Statement.Attributes;
import ballot.cql.type.ConstantKind;
import ballot.cql.type.CqlTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser for CQL 3 statements. Unquoted identifiers are case-insensitive (lower-cased); quoted ones
 * keep their case. A syntax error names the line, the column, the token found and what was expected there.
 */
public final class Parser {
    /** Words that cannot be used as unquoted identifiers (Cassandra's reserved keywords). */
    private static final Set<String> RESERVED = Set.of(
            "add", "allow", "alter", "and", "apply", "asc", "authorize", "batch", "begin", "by", "columnfamily",
            "create", "delete", "desc", "describe", "drop", "entries", "execute", "from", "full", "grant", "if", "in",
            "index", "infinity", "insert", "into", "is", "keyspace", "limit", "materialized", "modify", "nan",
            "norecursive", "not", "null", "of", "on", "or", "order", "primary", "rename", "revoke", "schema",
            "select", "set", "table", "to", "token", "truncate", "unlogged", "update", "use", "using", "view",
            "where", "with");

    /** Unreserved keywords that still cannot name a user type. */
    private static final Set<String> NOT_TYPE_NAMES = Set.of("ttl", "count", "writetime", "maxwritetime", "cast", "json", "distinct");
    /** Names Cassandra keeps for types it may add. */
    private static final Set<String> RESERVED_TYPE_NAMES = Set.of("byte", "complex", "enum", "interval", "macaddr", "bitstring");

    private static final String CREATE_SUPPORTED = " (supported: CREATE KEYSPACE, CREATE TABLE, CREATE TYPE, CREATE INDEX, CREATE ROLE, CREATE USER)";
    private static final String PERMISSIONS = "CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE";

    private final String text;
    private final List<Token> tokens;
    private int index;
    private int markers;
    /** True while parsing the values a transaction's update writes, where {@code name.column} is a LET reference. */
    private boolean letReferences;
    /** True while parsing a transaction's updates. */
    private boolean inTransaction;
    private static final String DATA_MASKING_DISABLED = "Cannot mask columns because dynamic data masking is not enabled. "
            + "You can enable it with the dynamic_data_masking_enabled property on cassandra.yaml";

    /** A refusal Cassandra makes once the statement has parsed (syntax errors anywhere in it come first). */
    private InvalidRequestException refusal;
    /**
     * How deep terms, selectors and types may nest in one statement: far below what the parser's stack (and the
     * recursive code that later walks what it built) can take, far above what any real statement needs.
     */
    public static final int NESTING_MAX = 200;
    private int nesting;

    private Parser(String text) {
        this.text = text;
        this.tokens = Lexer.tokenize(text);
    }

    /** A parsed statement and how many bind markers it has (numbered 0.. in order of appearance). */
    public record Parsed(Statement statement, int markerCount) {}

    /** Parses exactly one statement, optionally followed by a semicolon. */
    public static Parsed parse(String cql) {
        Parser parser = new Parser(cql);
        Statement statement = parser.statement();
        parser.acceptSymbol(";");
        parser.expectEnd();
        if (parser.refusal != null) throw parser.refusal;
        return new Parsed(statement, parser.markers);
    }

    private void refuseAfterParsing(String message) {
        if (refusal == null) refusal = new InvalidRequestException(message);
    }

    /** Ends a statement Ballot has no representation for: it must be complete, and is then refused. */
    private <T> T refuseAtEnd() {
        acceptSymbol(";");
        expectEnd();
        throw refusal;
    }

    // ---------------------------------------------------------------- statements

    private Statement statement() {
        Token t = peek();
        if (t.isWord("select")) return select();
        if (t.isWord("insert")) return insert();
        if (t.isWord("update")) return update();
        if (t.isWord("delete")) return delete();
        if (t.isWord("begin")) return peek(1).isWord("transaction") ? transaction() : batch();
        if (t.isWord("use")) {
            next();
            return new Statement.Use(identifier("keyspace name"));
        }
        if (t.isWord("create")) return create();
        if (t.isWord("alter")) return alter();
        if (t.isWord("drop")) return drop();
        if (t.isWord("truncate")) {
            next();
            if (!acceptWord("table")) acceptWord("columnfamily");
            QualifiedName table = qualifiedName("table name");
            return new Statement.Truncate(table, usingClause(Using.TIMEOUT).timeout());
        }
        if (t.isWord("describe") || t.isWord("desc")) return describe();
        if (t.isWord("list") && (peek(1).isWord("roles") || peek(1).isWord("users"))) return listRoles();
        if (t.isWord("grant") && peek(2).isWord("to") || t.isWord("revoke") && peek(2).isWord("from")) return grantRole();
        if (t.isWord("grant") || t.isWord("revoke")) return grantPermission();
        if (t.isWord("list")) return listPermissions();
        throw syntax(t, "no viable alternative at input " + t.describe());
    }

    private Statement select() {
        expectWord("select");
        boolean json = false;
        boolean distinct = false;
        if (peek().isWord("json") && isKeywordBeforeSelectors(1)) {
            next();
            json = true;
        }
        if (peek().isWord("distinct") && isKeywordBeforeSelectors(1)) {
            next();
            distinct = true;
        }
        List<Selector.Aliased> selectors = new ArrayList<>();
        if (!acceptSymbol("*")) {
            do {
                Selector selector = selector();
                String alias = acceptWord("as") ? identifier("alias") : null;
                selectors.add(new Selector.Aliased(selector, alias));
            } while (acceptSymbol(","));
        }
        expectWord("from");
        QualifiedName table = qualifiedName("table name");
        List<Relation> where = acceptWord("where") ? whereClause() : List.of();
        List<String> groupBy = new ArrayList<>();
        if (acceptWord("group")) {
            expectWord("by");
            do groupBy.add(identifier("column name")); while (acceptSymbol(","));
        }
        List<Statement.Ordering> orderBy = new ArrayList<>();
        if (acceptWord("order")) {
            expectWord("by");
            do {
                String column = identifier("column name");
                Term annOf = null;
                if (acceptWord("ann")) {
                    expectWord("of");
                    annOf = term();
                }
                boolean descending = false;
                if (acceptWord("desc")) descending = true;
                else acceptWord("asc");
                orderBy.add(new Statement.Ordering(column, descending, annOf));
            } while (acceptSymbol(","));
        }
        Term perPartitionLimit = null;
        if (peek().isWord("per")) {
            next();
            expectWord("partition");
            expectWord("limit");
            perPartitionLimit = intValue();
        }
        Term limit = acceptWord("limit") ? intValue() : null;
        boolean allowFiltering = false;
        if (acceptWord("allow")) {
            expectWord("filtering");
            allowFiltering = true;
        }
        Term timeout = usingClause(Using.TIMEOUT).timeout();
        return new Statement.Select(table, json, distinct, List.copyOf(selectors), where, List.copyOf(groupBy),
                List.copyOf(orderBy), perPartitionLimit, limit, allowFiltering, timeout);
    }

    /** JSON and DISTINCT are not reserved: they are keywords only when a selector follows them. */
    private boolean isKeywordBeforeSelectors(int ahead) {
        Token after = peek(ahead);
        if (after.isWord("from") || after.isWord("as")) return false;
        return !(after.isSymbol(",") || after.isSymbol("(") || after.isSymbol(".") || after.isSymbol("["));
    }

    private Statement insert() {
        expectWord("insert");
        expectWord("into");
        QualifiedName table = qualifiedName("table name");
        if (acceptWord("json")) {
            Term json = term();
            boolean defaultUnset = false;
            if (acceptWord("default")) {
                if (acceptWord("unset")) defaultUnset = true;
                else if (!acceptWord("null")) throw unexpected("NULL or UNSET");
            }
            boolean ifNotExists = ifNotExists();
            Attributes attributes = usingClause(Using.TTL, Using.TIMESTAMP, Using.TIMEOUT);
            return new Statement.InsertJson(table, json, defaultUnset, ifNotExists, attributes);
        }
        expectSymbol("(");
        List<String> columns = new ArrayList<>();
        do columns.add(identifier("column name")); while (acceptSymbol(","));
        expectSymbol(")");
        expectWord("values");
        expectSymbol("(");
        letReferences = inTransaction;
        List<Term> values = new ArrayList<>();
        do values.add(term()); while (acceptSymbol(","));
        expectSymbol(")");
        letReferences = false;
        boolean ifNotExists = ifNotExists();
        Attributes attributes = usingClause(Using.TTL, Using.TIMESTAMP, Using.TIMEOUT);
        return new Statement.Insert(table, List.copyOf(columns), List.copyOf(values), ifNotExists, attributes);
    }

    private Statement update() {
        expectWord("update");
        QualifiedName table = qualifiedName("table name");
        Attributes attributes = usingClause(Using.TTL, Using.TIMESTAMP, Using.TIMEOUT);
        expectWord("set");
        List<Assignment> assignments = new ArrayList<>();
        letReferences = inTransaction;
        do assignments.add(assignment()); while (acceptSymbol(","));
        letReferences = false;
        expectWord("where");
        List<Relation> where = whereClause();
        boolean ifExists = false;
        List<Condition> conditions = List.of();
        if (acceptWord("if")) {
            if (acceptWord("exists")) ifExists = true;
            else conditions = conditions();
        }
        return new Statement.Update(table, attributes, List.copyOf(assignments), where, ifExists, conditions);
    }

    private Assignment assignment() {
        String column = identifier("column name");
        if (acceptSymbol("[")) {
            Term key = term();
            expectSymbol("]");
            expectSymbol("=");
            return new Assignment.SetElement(column, key, term());
        }
        if (acceptSymbol(".")) {
            String field = identifier("field name");
            expectSymbol("=");
            return new Assignment.SetField(column, field, term());
        }
        if (acceptSymbol("+=")) return new Assignment.Add(column, term());
        if (acceptSymbol("-=")) return new Assignment.Subtract(column, term());
        expectSymbol("=");
        Token t = peek();
        if ((t.is(Token.Kind.IDENTIFIER) && !RESERVED.contains(lower(t.text())) || t.is(Token.Kind.QUOTED_NAME))
                && !startsCall(0) && !isConstantWord(t) && !isLetReference(0)) {
            String operand = identifier("column name");
            if (!operand.equals(column)) {
                throw new SyntaxException("Only expressions of the form X = X +<value> are supported.");
            }
            if (acceptSymbol("+")) return new Assignment.Add(column, term());
            if (acceptSymbol("-")) return new Assignment.Subtract(column, term());
            throw unexpected("'+' or '-'");
        }
        Term value = simpleTerm();
        if (peek().isSymbol("+") && (peek(1).is(Token.Kind.IDENTIFIER) || peek(1).is(Token.Kind.QUOTED_NAME))
                && !peek(1).isWord("null") && !startsCall(1) && !isLetReference(1)) {
            next();
            String operand = identifier("column name");
            if (!operand.equals(column)) {
                throw new SyntaxException("Only expressions of the form X = <value> + X are supported.");
            }
            return new Assignment.Prepend(column, value);
        }
        return new Assignment.SetValue(column, continueArithmetic(value));
    }

    /** Whether {@code name.column} starts {@code ahead} tokens on, where a LET reference may be written. */
    private boolean isLetReference(int ahead) {
        return letReferences && isNameDotColumn(ahead);
    }

    /** Whether {@code name.column} starts {@code ahead} tokens on, and not {@code keyspace.function(}. */
    private boolean isNameDotColumn(int ahead) {
        return peek(ahead + 1).isSymbol(".") && !peek(ahead + 3).isSymbol("(");
    }

    /** Whether a function call, {@code function(} or {@code keyspace.function(}, starts {@code ahead} tokens on. */
    private boolean startsCall(int ahead) {
        return peek(ahead + 1).isSymbol("(") || peek(ahead + 1).isSymbol(".") && peek(ahead + 3).isSymbol("(");
    }

    private Statement delete() {
        expectWord("delete");
        List<Statement.DeleteTarget> targets = new ArrayList<>();
        if (!peek().isWord("from")) {
            do {
                String column = identifier("column name");
                if (acceptSymbol("[")) {
                    Term key = term();
                    expectSymbol("]");
                    targets.add(new Statement.DeleteTarget(column, key, null));
                } else if (acceptSymbol(".")) {
                    targets.add(new Statement.DeleteTarget(column, null, identifier("field name")));
                } else {
                    targets.add(new Statement.DeleteTarget(column, null, null));
                }
            } while (acceptSymbol(","));
        }
        expectWord("from");
        QualifiedName table = qualifiedName("table name");
        Attributes attributes = usingClause(Using.TIMESTAMP, Using.TIMEOUT);
        expectWord("where");
        List<Relation> where = whereClause();
        boolean ifExists = false;
        List<Condition> conditions = List.of();
        if (acceptWord("if")) {
            if (acceptWord("exists")) ifExists = true;
            else conditions = conditions();
        }
        return new Statement.Delete(table, List.copyOf(targets), attributes, where, ifExists, conditions);
    }

    private Statement batch() {
        expectWord("begin");
        Statement.BatchType type = Statement.BatchType.LOGGED;
        if (acceptWord("unlogged")) type = Statement.BatchType.UNLOGGED;
        else if (acceptWord("counter")) type = Statement.BatchType.COUNTER;
        expectWord("batch");
        Attributes attributes = usingClause(Using.TTL, Using.TIMESTAMP, Using.TIMEOUT);
        List<Statement.Modification> statements = new ArrayList<>();
        while (!peek().isWord("apply")) {
            Token t = peek();
            Statement s;
            if (t.isWord("insert")) s = insert();
            else if (t.isWord("update")) s = update();
            else if (t.isWord("delete")) s = delete();
            else throw unexpected("INSERT, UPDATE, DELETE or APPLY BATCH");
            statements.add((Statement.Modification) s);
            acceptSymbol(";");
        }
        expectWord("apply");
        expectWord("batch");
        return new Statement.Batch(type, attributes, List.copyOf(statements));
    }

    /**
     * {@code BEGIN TRANSACTION {LET name = (SELECT ...);} [SELECT ...;] [IF cond {AND cond} THEN] {modification;}
     * [END IF] COMMIT TRANSACTION}, in that order, as Cassandra 6.0's grammar has it; every part ends with a semicolon.
     */
    private Statement transaction() {
        expectWord("begin");
        expectWord("transaction");
        List<Statement.Let> lets = new ArrayList<>();
        while (acceptWord("let")) {
            String name = letName();
            expectSymbol("=");
            expectSymbol("(");
            Statement.Select select = (Statement.Select) select();
            expectSymbol(")");
            expectSymbol(";");
            lets.add(new Statement.Let(name, select));
        }
        Statement.Returning returning = null;
        if (peek().isWord("select")) {
            returning = selectsReferences() ? new Statement.ReturningReferences(references())
                    : new Statement.ReturningSelect((Statement.Select) select());
            expectSymbol(";");
        }
        List<Statement.TxnCondition> conditions = null;
        if (acceptWord("if")) {
            conditions = new ArrayList<>();
            do conditions.add(txnCondition()); while (acceptWord("and"));
            expectWord("then");
            conditions = List.copyOf(conditions);
        }
        List<Statement.Modification> updates = new ArrayList<>();
        inTransaction = true;
        while (peek().isWord("insert") || peek().isWord("update") || peek().isWord("delete")) {
            Token t = peek();
            Statement s = t.isWord("insert") ? insert() : t.isWord("update") ? update() : delete();
            updates.add((Statement.Modification) s);
            expectSymbol(";");
        }
        inTransaction = false;
        if (conditions != null) {
            expectWord("end");
            expectWord("if");
        }
        if (!peek().isWord("commit")) {
            throw unexpected(conditions != null ? "COMMIT TRANSACTION" : updates.isEmpty() && returning == null && lets.isEmpty()
                    ? "LET, SELECT, IF, INSERT, UPDATE, DELETE or COMMIT TRANSACTION" : "INSERT, UPDATE, DELETE or COMMIT TRANSACTION");
        }
        expectWord("commit");
        expectWord("transaction");
        while (acceptSymbol(";")) {
            // Cassandra's grammar takes any number of semicolons after COMMIT TRANSACTION
        }
        return new Statement.Transaction(List.copyOf(lets), returning, conditions, List.copyOf(updates));
    }

    /** A LET name: a plain identifier, kept as written. */
    private String letName() {
        Token t = peek();
        if (!t.is(Token.Kind.IDENTIFIER)) throw unexpected("a name for the LET");
        identifier("a name for the LET"); // refuses reserved words
        return t.text();
    }

    /** Whether the SELECT ahead returns LET values ({@code SELECT a.x, b.y;}): it has no FROM before its end. */
    private boolean selectsReferences() {
        int depth = 0;
        for (int i = 1; ; i++) {
            Token t = peek(i);
            if (t.is(Token.Kind.EOF) || (depth == 0 && t.isSymbol(";"))) return true;
            if (t.isSymbol("(")) depth++;
            else if (t.isSymbol(")")) depth--;
            else if (depth == 0 && t.isWord("from")) return false;
        }
    }

    private List<Statement.RowReference> references() {
        expectWord("select");
        List<Statement.RowReference> references = new ArrayList<>();
        do references.add(rowReference()); while (acceptSymbol(","));
        return List.copyOf(references);
    }

    /** {@code name} or {@code name.column}; element and field references are not supported. */
    private Statement.RowReference rowReference() {
        Token t = peek();
        if (!t.is(Token.Kind.IDENTIFIER) && !t.is(Token.Kind.QUOTED_NAME)) throw unexpected("a LET reference");
        next();
        String column = acceptSymbol(".") ? identifier("column name") : null;
        if (peek().isSymbol(".") || peek().isSymbol("[")) {
            throw syntax(peek(), "references to UDT fields or collection elements of a LET row are not supported by Ballot");
        }
        return new Statement.RowReference(t.text(), column);
    }

    /** {@code reference IS [NOT] NULL}, {@code reference op term}, or {@code term op reference} (read as the former). */
    private Statement.TxnCondition txnCondition() {
        Token first = peek();
        boolean referenceFirst = (first.is(Token.Kind.IDENTIFIER) && !isConstantWord(first) || first.is(Token.Kind.QUOTED_NAME))
                && (isNameDotColumn(0) || peek(1).isWord("is") || isComparison(peek(1)));
        if (!referenceFirst) {
            Term value = term();
            Operator op = operator(false);
            return new Statement.TxnComparison(rowReference(), op.reverse(), value);
        }
        Statement.RowReference reference = rowReference();
        if (acceptWord("is")) {
            boolean not = acceptWord("not");
            expectWord("null");
            return new Statement.TxnNullness(reference, !not);
        }
        Operator op = operator(false);
        return new Statement.TxnComparison(reference, op, term());
    }

    private boolean ifNotExists() {
        if (peek().isWord("if") && peek(1).isWord("not")) {
            next();
            next();
            expectWord("exists");
            return true;
        }
        return false;
    }

    private boolean ifExists() {
        if (peek().isWord("if") && peek(1).isWord("exists")) {
            next();
            next();
            return true;
        }
        return false;
    }

    /** What a USING clause may set: which of them depends on the statement (Cassandra's and ScyllaDB's Cql.g). */
    private enum Using { TTL, TIMESTAMP, TIMEOUT }

    /**
     * An optional {@code USING x [AND y ...]} naming only {@code allowed} options, each at most once. TIMEOUT is
     * ScyllaDB's per-statement timeout: SELECT and TRUNCATE take only it, DELETE has no TTL.
     */
    private Attributes usingClause(Using... allowed) {
        if (!acceptWord("using")) return Attributes.NONE;
        Map<Using, Term> given = new java.util.EnumMap<>(Using.class);
        do {
            Using option = null;
            for (Using u : allowed) if (peek().isWord(lower(u.name()))) option = u;
            if (option == null) {
                List<String> names = new ArrayList<>();
                for (Using u : allowed) names.add(u.name());
                throw unexpected(String.join(" or ", names));
            }
            next();
            if (given.containsKey(option)) throw syntax(previous(), option + " given twice");
            given.put(option, option == Using.TIMEOUT ? term() : intValue()); // TTL and TIMESTAMP: an integer or a marker
        } while (acceptWord("and"));
        return new Attributes(given.get(Using.TTL), given.get(Using.TIMESTAMP), given.get(Using.TIMEOUT));
    }

    private List<Condition> conditions() {
        List<Condition> conditions = new ArrayList<>();
        do {
            String column = identifier("column name");
            Term key = null;
            String field = null;
            if (acceptSymbol("[")) {
                key = term();
                expectSymbol("]");
            } else if (acceptSymbol(".")) {
                field = identifier("field name");
            }
            if (key == null && field == null && acceptWord("contains")) {
                Operator op = acceptWord("key") ? Operator.CONTAINS_KEY : Operator.CONTAINS;
                conditions.add(new Condition(column, null, null, op, term()));
                continue;
            }
            Operator op = operator(true);
            Term value = op == Operator.IN ? inValues() : term();
            conditions.add(new Condition(column, key, field, op, value));
        } while (acceptWord("and"));
        return List.copyOf(conditions);
    }

    private List<Relation> whereClause() {
        List<Relation> relations = new ArrayList<>();
        do relations.add(relation()); while (acceptWord("and"));
        return List.copyOf(relations);
    }

    private Relation relation() {
        if (peek().isWord("token") && peek(1).isSymbol("(")) {
            next();
            expectSymbol("(");
            List<String> columns = new ArrayList<>();
            do columns.add(identifier("partition key column")); while (acceptSymbol(","));
            expectSymbol(")");
            Operator op = operator(false);
            return new Relation.TokenRange(List.copyOf(columns), op, term());
        }
        if (acceptSymbol("(")) {
            List<String> columns = new ArrayList<>();
            do columns.add(identifier("clustering column")); while (acceptSymbol(","));
            expectSymbol(")");
            Operator op = operator(true);
            if (op == Operator.IN) {
                if (markerNext()) return new Relation.Multi(List.copyOf(columns), op, term());
                expectSymbol("(");
                List<Term> tuples = new ArrayList<>();
                if (!peek().isSymbol(")")) {
                    do tuples.add(markerNext() ? term() : tupleLiteral()); while (acceptSymbol(","));
                }
                expectSymbol(")");
                return new Relation.Multi(List.copyOf(columns), op, new Term.ListLiteral(List.copyOf(tuples)));
            }
            Term value = markerNext() ? term() : tupleLiteral();
            return new Relation.Multi(List.copyOf(columns), op, value);
        }
        String column = identifier("column name");
        if (acceptSymbol("[")) {
            Term mapKey = term();
            expectSymbol("]");
            return new Relation.Single(column, mapKey, operator(false), term());
        }
        if (acceptWord("is")) {
            expectWord("not");
            expectWord("null");
            return new Relation.Single(column, null, Operator.IS_NOT, new Term.Null());
        }
        if (acceptWord("contains")) {
            Operator op = acceptWord("key") ? Operator.CONTAINS_KEY : Operator.CONTAINS;
            return new Relation.Single(column, null, op, term());
        }
        if (acceptWord("like")) return new Relation.Single(column, null, Operator.LIKE, term());
        Operator op = operator(true);
        Term value = op == Operator.IN ? inValues() : term();
        return new Relation.Single(column, null, op, value);
    }

    private Term inValues() {
        if (markerNext()) return term();
        expectSymbol("(");
        List<Term> values = new ArrayList<>();
        if (!peek().isSymbol(")")) {
            do values.add(term()); while (acceptSymbol(","));
        }
        expectSymbol(")");
        return new Term.ListLiteral(List.copyOf(values));
    }

    private Term tupleLiteral() {
        expectSymbol("(");
        List<Term> elements = new ArrayList<>();
        do elements.add(term()); while (acceptSymbol(","));
        expectSymbol(")");
        return new Term.TupleLiteral(List.copyOf(elements));
    }

    private static boolean isComparison(Token t) {
        return t.kind() == Token.Kind.SYMBOL && switch (t.text()) {
            case "=", "!=", "<", "<=", ">", ">=" -> true;
            default -> false;
        };
    }

    private Operator operator(boolean allowIn) {
        Token t = next();
        if (t.kind() == Token.Kind.SYMBOL) {
            switch (t.text()) {
                case "=": return Operator.EQ;
                case "!=": return Operator.NEQ;
                case "<": return Operator.LT;
                case "<=": return Operator.LTE;
                case ">": return Operator.GT;
                case ">=": return Operator.GTE;
                default: break;
            }
        }
        if (allowIn && t.isWord("in")) return Operator.IN;
        index--;
        throw unexpected(allowIn ? "an operator (=, !=, <, <=, >, >=, IN)" : "an operator (=, !=, <, <=, >, >=)");
    }

    // ---------------------------------------------------------------- DDL

    private Statement create() {
        expectWord("create");
        if (acceptWord("keyspace") || acceptWord("schema")) {
            boolean ifNotExists = ifNotExists();
            String name = identifier("keyspace name");
            expectWord("with");
            return new Statement.CreateKeyspace(name, ifNotExists, properties(false));
        }
        if (acceptWord("table") || acceptWord("columnfamily")) return createTable();
        if (acceptWord("type")) {
            boolean ifNotExists = ifNotExists();
            QualifiedName name = userTypeName();
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            elementList(() -> {
                names.add(identifier("field name"));
                types.add(type());
            });
            return new Statement.CreateType(name, ifNotExists, List.copyOf(names), List.copyOf(types));
        }
        if (peek().isWord("index") || peek().isWord("custom") && peek(1).isWord("index")) return createIndex();
        if (acceptWord("role")) {
            boolean ifNotExists = ifNotExists();
            String name = roleName();
            return new Statement.CreateRole(name, ifNotExists, acceptWord("with") ? roleOptions() : RoleOptions.NONE, false);
        }
        if (acceptWord("user")) {
            boolean ifNotExists = ifNotExists();
            return new Statement.CreateRole(roleName(), ifNotExists, userOptions(), true);
        }
        if (peek().isWord("or") && peek(1).isWord("replace") && (peek(2).isWord("function") || peek(2).isWord("aggregate"))) {
            throw new InvalidRequestException("CREATE OR REPLACE " + peek(2).text().toUpperCase(Locale.ROOT)
                    + " is not supported by Ballot yet" + CREATE_SUPPORTED);
        }
        Token t = peek();
        if (t.isWord("materialized") || t.isWord("function")
                || t.isWord("aggregate") || t.isWord("or") || t.isWord("trigger")) {
            throw new InvalidRequestException("CREATE " + unsupportedObject() + " is not supported by Ballot yet" + CREATE_SUPPORTED);
        }
        throw unexpected("KEYSPACE, TABLE or TYPE");
    }

    /** The kind of schema object the next words name, for a refusal: {@code MATERIALIZED VIEW}, {@code FUNCTION}, ... */
    private String unsupportedObject() {
        String kind = peek().text().toUpperCase(Locale.ROOT);
        return peek().isWord("materialized") && peek(1).isWord("view") ? kind + " VIEW" : kind;
    }

    private Statement createTable() {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = qualifiedName("table name");
        TableElements elements = new TableElements();
        elementList(elements::element);
        Properties properties = acceptWord("with") ? properties(true) : Properties.NONE;
        return new Statement.CreateTable(name, ifNotExists, List.copyOf(elements.columns), List.copyOf(elements.partitionKey),
                List.copyOf(elements.clustering), elements.primaryKeys, properties);
    }

    /**
     * {@code '(' element (',' element?)* ')'}: the column lists of CREATE TABLE and CREATE TYPE, where Cassandra's
     * grammar lets any comma after the first element stand alone, so {@code (a int, b int,)} is valid.
     */
    private void elementList(Runnable element) {
        expectSymbol("(");
        element.run();
        while (acceptSymbol(",")) {
            if (!peek().isSymbol(",") && !peek().isSymbol(")")) element.run();
        }
        expectSymbol(")");
    }

    /** The columns and primary key of a CREATE TABLE, as its elements are read. */
    private final class TableElements {
        final List<Statement.ColumnDefinition> columns = new ArrayList<>();
        final List<String> partitionKey = new ArrayList<>();
        final List<String> clustering = new ArrayList<>();
        int primaryKeys;

        void element() {
            if (acceptWord("primary")) {
                expectWord("key");
                expectSymbol("(");
                List<String> key = new ArrayList<>();
                if (acceptSymbol("(")) {
                    do key.add(identifier("partition key column")); while (acceptSymbol(","));
                    expectSymbol(")");
                } else {
                    key.add(identifier("partition key column"));
                }
                List<String> clusteringKey = new ArrayList<>();
                while (acceptSymbol(",")) clusteringKey.add(identifier("clustering column"));
                setPrimaryKey(key, clusteringKey);
                expectSymbol(")");
                return;
            }
            Statement.ColumnDefinition column = columnDefinition();
            columns.add(column);
            if (acceptWord("primary")) {
                expectWord("key");
                setPrimaryKey(List.of(column.name()), List.of());
            }
        }

        private void setPrimaryKey(List<String> key, List<String> clusteringKey) {
            if (primaryKeys++ > 0) return;
            partitionKey.addAll(key);
            clustering.addAll(clusteringKey);
        }
    }

    /**
     * {@code CREATE [CUSTOM] INDEX [IF NOT EXISTS] [[ks.]name] ON [ks.]table (target, ...) [USING 'class'] [WITH
     * OPTIONS = {...}]} (Cassandra's createIndexStatement).
     */
    private Statement createIndex() {
        boolean custom = acceptWord("custom");
        expectWord("index");
        boolean ifNotExists = ifNotExists();
        QualifiedName name = peek().isWord("on") ? null : qualifiedName("index name");
        expectWord("on");
        QualifiedName table = qualifiedName("table name");
        expectSymbol("(");
        List<Statement.IndexedColumn> targets = new ArrayList<>();
        if (!peek().isSymbol(")")) {
            do targets.add(indexedColumn()); while (acceptSymbol(","));
        }
        expectSymbol(")");
        String using = null;
        if (acceptWord("using")) {
            Token cls = next();
            if (!cls.is(Token.Kind.STRING)) {
                index--;
                throw unexpected("the index class as a string");
            }
            using = cls.text();
        }
        Properties properties = acceptWord("with") ? properties(false) : Properties.NONE;
        return new Statement.CreateIndex(table, name, List.copyOf(targets), custom, using, properties, ifNotExists);
    }

    private Statement.IndexedColumn indexedColumn() {
        Token t = peek();
        boolean wrapped = (t.isWord("values") || t.isWord("keys") || t.isWord("entries") || t.isWord("full")) && peek(1).isSymbol("(");
        if (!wrapped) return new Statement.IndexedColumn(identifier("column name"), "");
        String part = lower(next().text());
        expectSymbol("(");
        String column = identifier("column name");
        expectSymbol(")");
        return new Statement.IndexedColumn(column, part);
    }

    private Properties properties(boolean table) {
        Map<String, Object> values = new LinkedHashMap<>();
        List<Properties.Ordering> clusteringOrder = new ArrayList<>();
        boolean compactStorage = false;
        do {
            if (table && peek().isWord("clustering")) {
                next();
                expectWord("order");
                expectWord("by");
                expectSymbol("(");
                do {
                    String column = identifier("clustering column");
                    boolean descending = false;
                    if (acceptWord("desc")) descending = true;
                    else if (!acceptWord("asc")) throw unexpected("ASC or DESC");
                    clusteringOrder.add(new Properties.Ordering(column, descending));
                } while (acceptSymbol(","));
                expectSymbol(")");
                continue;
            }
            if (table && peek().isWord("compact")) {
                next();
                expectWord("storage");
                compactStorage = true;
                continue;
            }
            String property = identifier("property name");
            expectSymbol("=");
            Object value;
            if (peek().isSymbol("{")) {
                value = propertyMap();
            } else {
                value = propertyValue();
            }
            // Cassandra reports a repeated property, and a repeated key of a property's map, without a position
            if (values.put(property, value) != null) throw new SyntaxException("Multiple definitions for property '" + property + "'");
        } while (acceptWord("and"));
        return new Properties(values, List.copyOf(clusteringOrder), compactStorage);
    }

    private Map<String, String> propertyMap() {
        expectSymbol("{");
        Map<String, String> map = new LinkedHashMap<>();
        if (!peek().isSymbol("}")) {
            do {
                String key = propertyValue();
                expectSymbol(":");
                if (map.put(key, propertyValue()) != null) throw new SyntaxException("Multiple definition for property " + key);
            } while (acceptSymbol(","));
        }
        expectSymbol("}");
        return map;
    }

    private String propertyValue() {
        Token t = next();
        switch (t.kind()) {
            // Cassandra's propertyValue: a constant or an unreserved keyword (Ballot takes any unreserved word)
            case STRING, INTEGER, FLOAT, UUID, HEX, DURATION:
                return t.text();
            case IDENTIFIER:
                if (!RESERVED.contains(lower(t.text()))) return t.text();
                break;
            case SYMBOL:
                if (t.text().equals("-") && (peek().is(Token.Kind.INTEGER) || peek().is(Token.Kind.FLOAT))) return "-" + next().text();
                break;
            default:
                break;
        }
        index--;
        throw unexpected("a property value (string, number, boolean or map)");
    }

    private Statement alter() {
        expectWord("alter");
        if (acceptWord("keyspace") || acceptWord("schema")) {
            boolean ifExists = ifExists();
            String name = identifier("keyspace name");
            expectWord("with");
            return new Statement.AlterKeyspace(name, ifExists, properties(false));
        }
        if (acceptWord("table") || acceptWord("columnfamily")) {
            boolean ifExists = ifExists();
            QualifiedName name = qualifiedName("table name");
            return new Statement.AlterTable(name, ifExists, alterTableAction());
        }
        if (acceptWord("type")) {
            boolean ifExists = ifExists();
            QualifiedName name = userTypeName();
            if (acceptWord("add")) {
                boolean ifNotExists = ifNotExists();
                String field = identifier("field name");
                return new Statement.AlterType(name, ifExists, new Statement.AddField(field, type(), ifNotExists));
            }
            if (acceptWord("rename")) {
                boolean ifFieldExists = ifExists();
                List<String> from = new ArrayList<>();
                List<String> to = new ArrayList<>();
                do {
                    from.add(identifier("field name"));
                    expectWord("to");
                    to.add(identifier("field name"));
                } while (acceptWord("and"));
                return new Statement.AlterType(name, ifExists, new Statement.RenameFields(List.copyOf(from), List.copyOf(to), ifFieldExists));
            }
            if (peek().isWord("alter")) {
                throw new InvalidRequestException("Altering field types is no longer supported");
            }
            throw unexpected("ADD or RENAME");
        }
        if (acceptWord("role")) {
            String name = roleName();
            expectWord("with");
            return new Statement.AlterRole(name, roleOptions(), false);
        }
        if (acceptWord("user")) return new Statement.AlterRole(roleName(), userOptions(), true);
        Token t = peek();
        if (t.isWord("materialized")) {
            throw new InvalidRequestException("ALTER " + unsupportedObject() + " is not supported by Ballot yet");
        }
        throw unexpected("KEYSPACE, TABLE or TYPE");
    }

    private Statement.AlterTableAction alterTableAction() {
        if (acceptWord("add")) {
            boolean ifNotExists = ifNotExists();
            List<Statement.ColumnDefinition> columns = new ArrayList<>();
            if (acceptSymbol("(")) {
                do columns.add(columnDefinition()); while (acceptSymbol(","));
                expectSymbol(")");
            } else {
                columns.add(columnDefinition());
            }
            return new Statement.AddColumns(List.copyOf(columns), ifNotExists);
        }
        if (peek().isWord("drop") && peek(1).isWord("compact") && peek(2).isWord("storage")) {
            index += 3;
            return new Statement.DropCompactStorage();
        }
        if (acceptWord("drop")) {
            boolean ifExists = ifExists();
            List<String> columns = new ArrayList<>();
            if (acceptSymbol("(")) {
                do columns.add(identifier("column name")); while (acceptSymbol(","));
                expectSymbol(")");
            } else {
                columns.add(identifier("column name"));
            }
            Term timestamp = null;
            if (acceptWord("using")) {
                expectWord("timestamp");
                timestamp = integerLiteral();
            }
            return new Statement.DropColumns(List.copyOf(columns), ifExists, timestamp);
        }
        if (acceptWord("rename")) {
            boolean ifExists = ifExists();
            List<String> from = new ArrayList<>();
            List<String> to = new ArrayList<>();
            do {
                from.add(identifier("column name"));
                expectWord("to");
                to.add(identifier("column name"));
            } while (acceptWord("and"));
            return new Statement.RenameColumns(List.copyOf(from), List.copyOf(to), ifExists);
        }
        if (acceptWord("with")) return new Statement.SetTableOptions(properties(false));
        if (acceptWord("alter")) {
            boolean ifExists = ifExists();
            String column = identifier("column name");
            if (!ifExists && acceptWord("type")) return new Statement.AlterColumnType(column, type());
            if (peek().isWord("masked")) {
                columnMask();
            } else {
                expectWord("drop");
                expectWord("masked");
                refuseAfterParsing(DATA_MASKING_DISABLED);
            }
            return refuseAtEnd();
        }
        throw unexpected("ADD, DROP, RENAME, ALTER or WITH");
    }

    /** {@code name type [STATIC] [MASKED WITH ...]}; a mask is refused once the statement is read, see {@link #columnMask}. */
    private Statement.ColumnDefinition columnDefinition() {
        String column = identifier("column name");
        String type = type();
        boolean isStatic = acceptWord("static");
        if (peek().isWord("masked")) columnMask();
        return new Statement.ColumnDefinition(column, type, isStatic);
    }

    /**
     * {@code MASKED WITH DEFAULT} or {@code MASKED WITH [ks.]function(args)}: dynamic data masking, which Cassandra 5.0
     * refuses unless enabled in cassandra.yaml (it is off by default), and Ballot always refuses the same way.
     */
    private void columnMask() {
        expectWord("masked");
        expectWord("with");
        if (!acceptWord("default")) functionCall(acceptKeyspacePrefix());
        refuseAfterParsing(DATA_MASKING_DISABLED);
    }

    private Statement drop() {
        expectWord("drop");
        if (acceptWord("keyspace") || acceptWord("schema")) {
            boolean ifExists = ifExists();
            return new Statement.DropKeyspace(identifier("keyspace name"), ifExists);
        }
        if (acceptWord("table") || acceptWord("columnfamily")) {
            boolean ifExists = ifExists();
            return new Statement.DropTable(qualifiedName("table name"), ifExists);
        }
        if (acceptWord("type")) {
            boolean ifExists = ifExists();
            return new Statement.DropType(userTypeName(), ifExists);
        }
        if (acceptWord("index")) {
            boolean ifExists = ifExists();
            return new Statement.DropIndex(qualifiedName("index name"), ifExists);
        }
        if (peek().isWord("role") || peek().isWord("user")) {
            boolean user = next().isWord("user");
            boolean ifExists = ifExists();
            return new Statement.DropRole(roleName(), ifExists, user);
        }
        Token t = peek();
        if (t.isWord("materialized") || t.isWord("function") || t.isWord("aggregate") || t.isWord("trigger")) {
            String kind = unsupportedObject();
            next();
            if (t.isWord("materialized")) expectWord("view");
            if (!ifExists()) throw new InvalidRequestException("DROP " + kind + " is not supported by Ballot yet");
            // There are none to drop: IF EXISTS makes it a no-op, as in Cassandra, so re-runnable cleanup scripts work.
            if (t.isWord("trigger")) {
                identifier("trigger name");
                expectWord("on");
            }
            QualifiedName name = qualifiedName(t.isWord("trigger") ? "table name" : kind.toLowerCase(Locale.ROOT) + " name");
            if ((t.isWord("function") || t.isWord("aggregate")) && acceptSymbol("(")) {
                if (!peek().isSymbol(")")) {
                    do type(); while (acceptSymbol(","));
                }
                expectSymbol(")");
            }
            return new Statement.DropNothing(kind, name);
        }
        throw unexpected("KEYSPACE, TABLE or TYPE");
    }

    // ---------------------------------------------------------------- roles

    /** {@code LIST ROLES [OF role] [NORECURSIVE]} or {@code LIST USERS}. */
    private Statement listRoles() {
        expectWord("list");
        if (acceptWord("users")) return new Statement.ListRoles(null, true, true);
        expectWord("roles");
        String of = acceptWord("of") ? roleName() : null;
        boolean recursive = !acceptWord("norecursive");
        return new Statement.ListRoles(of, recursive, false);
    }

    /** {@code GRANT role TO member} or {@code REVOKE role FROM member}: role membership, not permissions. */
    private Statement grantRole() {
        boolean revoke = next().isWord("revoke");
        String role = roleName();
        expectWord(revoke ? "from" : "to");
        return new Statement.GrantRole(role, roleName(), revoke);
    }

    // ---------------------------------------------------------------- permissions

    /** {@code GRANT permission ON resource TO role} or {@code REVOKE permission ON resource FROM role}. */
    private Statement grantPermission() {
        boolean revoke = next().isWord("revoke");
        Permission permission = permissionOrAll();
        expectWord("on");
        Statement.ResourceName on = resource();
        // Cassandra's parser refuses a permission that means nothing on the resource (CREATE on a table, DESCRIBE on data).
        boolean roles = on instanceof Statement.ResourceName.AllRoles || on instanceof Statement.ResourceName.Role;
        Set<Permission> applicable = roles ? RoleResource.applicablePermissions(on instanceof Statement.ResourceName.Role)
                : DataResource.applicablePermissions(on instanceof Statement.ResourceName.Table);
        if (permission != null && !applicable.contains(permission))
            throw new SyntaxException("Resource type " + (roles ? "RoleResource" : "DataResource") + " does not support any of the requested permissions");
        expectWord(revoke ? "from" : "to");
        return new Statement.GrantPermission(permission, on, roleName(), revoke);
    }

    /** {@code LIST permission [ON resource] [OF role] [NORECURSIVE]}. */
    private Statement listPermissions() {
        expectWord("list");
        Permission permission = permissionOrAll();
        Statement.ResourceName on = acceptWord("on") ? resource() : null;
        String of = acceptWord("of") ? roleName() : null;
        boolean recursive = !acceptWord("norecursive");
        return new Statement.ListPermissions(permission, on, of, recursive);
    }

    /** {@code ALL [PERMISSIONS]} (null) or {@code permission [PERMISSION]}. */
    private Permission permissionOrAll() {
        if (acceptWord("all")) {
            acceptWord("permissions");
            return null;
        }
        Token t = peek();
        Permission permission = t.is(Token.Kind.IDENTIFIER) ? Permission.named(t.text()) : null;
        if (permission == null) {
            String word = t.is(Token.Kind.IDENTIFIER) ? lower(t.text()) : "";
            if (word.equals("execute") || word.equals("unmask") || word.equals("select_masked"))
                throw new InvalidRequestException(word.toUpperCase(Locale.ROOT) + " permission is not supported by Ballot"
                        + " (no user-defined functions or data masking; supported: " + PERMISSIONS + ")");
            throw unexpected("a permission (" + PERMISSIONS + ") or ALL");
        }
        next();
        acceptWord("permission");
        return permission;
    }

    /** {@code ALL KEYSPACES}, {@code KEYSPACE ks}, {@code [TABLE] [ks.]table}, {@code ALL ROLES} or {@code ROLE r}. */
    private Statement.ResourceName resource() {
        Token t = peek();
        if (t.isWord("all") && peek(1).isWord("keyspaces")) {
            index += 2;
            return new Statement.ResourceName.AllKeyspaces();
        }
        if (t.isWord("all") && peek(1).isWord("roles")) {
            index += 2;
            return new Statement.ResourceName.AllRoles();
        }
        if (t.isWord("all") || t.isWord("function") || t.isWord("mbean") || t.isWord("mbeans")) {
            throw new InvalidRequestException("Permissions on " + (t.isWord("all") ? "ALL " + peek(1).text() : t.text()).toUpperCase(Locale.ROOT)
                    + " are not supported by Ballot (supported: ALL KEYSPACES, KEYSPACE ks, TABLE ks.t, ALL ROLES, ROLE r)");
        }
        if (acceptWord("role")) return new Statement.ResourceName.Role(roleName());
        if (acceptWord("keyspace")) return new Statement.ResourceName.Keyspace(identifier("keyspace name"));
        if (!acceptWord("table")) acceptWord("columnfamily");
        return new Statement.ResourceName.Table(qualifiedName("table name"));
    }

    /** A role or user name: unquoted (lower-cased), "quoted" or a 'string' (both as written), as in Cassandra. */
    private String roleName() {
        if (peek().is(Token.Kind.STRING)) return next().text();
        return identifier("role name");
    }

    /** {@code option = value [AND option = value]...} after WITH, for CREATE and ALTER ROLE. */
    private RoleOptions roleOptions() {
        String password = null;
        Boolean login = null;
        Boolean superuser = null;
        do {
            Token option = next();
            String name = option.is(Token.Kind.IDENTIFIER) ? lower(option.text()) : "";
            if (name.equals("hashed") || name.equals("options") || name.equals("access"))
                throw new InvalidRequestException("Role option " + option.text().toUpperCase(Locale.ROOT)
                        + " is not supported by Ballot yet (supported: PASSWORD, LOGIN, SUPERUSER)");
            expectSymbol("=");
            switch (name) {
                case "password" -> {
                    if (password != null) throw duplicateRoleOption("PASSWORD");
                    password = stringLiteral("a password");
                }
                case "login" -> {
                    if (login != null) throw duplicateRoleOption("LOGIN");
                    login = booleanLiteral("LOGIN");
                }
                case "superuser" -> {
                    if (superuser != null) throw duplicateRoleOption("SUPERUSER");
                    superuser = booleanLiteral("SUPERUSER");
                }
                default -> throw syntax(option, "no viable alternative at input " + option.describe()
                        + " (expecting PASSWORD, LOGIN or SUPERUSER)");
            }
        } while (acceptWord("and"));
        return new RoleOptions(password, login, superuser);
    }

    /** {@code [WITH PASSWORD 'p'] [SUPERUSER | NOSUPERUSER]} of CREATE and ALTER USER. */
    private RoleOptions userOptions() {
        String password = null;
        if (acceptWord("with")) {
            expectWord("password");
            password = stringLiteral("a password");
        }
        Boolean superuser = acceptWord("superuser") ? Boolean.TRUE : acceptWord("nosuperuser") ? Boolean.FALSE : null;
        return new RoleOptions(password, null, superuser);
    }

    private static SyntaxException duplicateRoleOption(String option) {
        return new SyntaxException("Multiple definition for property " + option);
    }

    private String stringLiteral(String what) {
        if (!peek().is(Token.Kind.STRING)) throw unexpected(what + " (a 'string')");
        return next().text();
    }

    private boolean booleanLiteral(String option) {
        if (peek().isWord("true") || peek().isWord("false")) return next().isWord("true");
        throw unexpected("true or false for " + option);
    }

    private Statement describe() {
        next();
        Token t = peek();
        if (acceptWord("cluster")) return describe(Statement.DescribeKind.CLUSTER, null);
        if (peek().isWord("full") && peek(1).isWord("schema")) {
            next();
            next();
            return new Statement.Describe(Statement.DescribeKind.FULL_SCHEMA, null, false, withInternals());
        }
        if (acceptWord("schema")) return new Statement.Describe(Statement.DescribeKind.SCHEMA, null, false, withInternals());
        if (acceptWord("keyspaces")) return describe(Statement.DescribeKind.KEYSPACES, null);
        boolean only = acceptWord("only");
        if (acceptWord("keyspace")) {
            String name = peek().is(Token.Kind.EOF) || peek().isSymbol(";") || peek().isWord("with") ? null : identifier("keyspace name");
            return new Statement.Describe(Statement.DescribeKind.KEYSPACE, name == null ? null : new QualifiedName(name, name), only, withInternals());
        }
        if (only) throw unexpected("KEYSPACE");
        if (acceptWord("tables") || acceptWord("columnfamilies")) return describe(Statement.DescribeKind.TABLES, null);
        if (acceptWord("types")) return describe(Statement.DescribeKind.TYPES, null);
        if (acceptWord("functions")) return describe(Statement.DescribeKind.FUNCTIONS, null);
        if (acceptWord("aggregates")) return describe(Statement.DescribeKind.AGGREGATES, null);
        if (acceptWord("table") || acceptWord("columnfamily")) return describeNamed(Statement.DescribeKind.TABLE, "table name");
        if (acceptWord("type")) return describeNamed(Statement.DescribeKind.TYPE, "type name");
        if (acceptWord("function")) return describeNamed(Statement.DescribeKind.FUNCTION, "function name");
        if (acceptWord("aggregate")) return describeNamed(Statement.DescribeKind.AGGREGATE, "aggregate name");
        if (acceptWord("index")) return describeNamed(Statement.DescribeKind.INDEX, "index name");
        if (acceptWord("materialized")) {
            expectWord("view");
            return describeNamed(Statement.DescribeKind.MATERIALIZED_VIEW, "view name");
        }
        if (t.is(Token.Kind.IDENTIFIER) || t.is(Token.Kind.QUOTED_NAME)) return describeNamed(Statement.DescribeKind.GENERIC, "keyspace or table name");
        throw unexpected("what to describe (KEYSPACES, KEYSPACE, TABLES, TABLE, TYPES, TYPE, SCHEMA, CLUSTER or a name)");
    }

    private Statement describe(Statement.DescribeKind kind, QualifiedName name) {
        return new Statement.Describe(kind, name, false, withInternals());
    }

    private Statement describeNamed(Statement.DescribeKind kind, String what) {
        QualifiedName name = qualifiedName(what);
        return new Statement.Describe(kind, name, false, withInternals());
    }

    private boolean withInternals() {
        if (acceptWord("with")) {
            expectWord("internals");
            return true;
        }
        return false;
    }

    /**
     * A CQL type as canonical text for the type parser: lower-cased words, quoted names kept quoted, a custom type's
     * class in single quotes.
     */
    private String type() {
        StringBuilder sb = new StringBuilder();
        typeInto(sb);
        return sb.toString();
    }

    private void typeInto(StringBuilder sb) {
        nested(() -> {
            typeLevelInto(sb);
            return null;
        });
    }

    private void typeLevelInto(StringBuilder sb) {
        Token t = next();
        if (t.is(Token.Kind.QUOTED_NAME)) {
            sb.append('"').append(t.text().replace("\"", "\"\"")).append('"');
        } else if (t.is(Token.Kind.STRING)) {
            sb.append('\'').append(t.text()).append('\'');
            return;
        } else if (t.is(Token.Kind.IDENTIFIER)) {
            String word = lower(t.text());
            checkTypeWord(t, word);
            sb.append(word);
        } else {
            index--;
            throw unexpected("a type");
        }
        if (acceptSymbol(".")) {
            sb.append('.');
            typeInto(sb);
            return;
        }
        if (acceptSymbol("<")) {
            sb.append('<');
            do {
                if (sb.charAt(sb.length() - 1) != '<') sb.append(", ");
                if (peek().is(Token.Kind.INTEGER)) sb.append(next().text());
                else typeInto(sb);
            } while (acceptSymbol(","));
            expectSymbol(">");
            sb.append('>');
        }
    }

    /**
     * A word in a type is a native type, {@code set<} (the one reserved keyword that is a type), another collection,
     * tuple, vector or frozen keyword, or a keyspace or user type name; as in Cassandra's {@code comparatorType}, a reserved
     * keyword or a boolean is none of these, a reserved type name is refused by name, and a word that may name only a
     * keyspace must be followed by the type's name.
     */
    private void checkTypeWord(Token t, String word) {
        boolean setType = word.equals("set") && peek().isSymbol("<");
        if (RESERVED.contains(word) && !setType || word.equals("true") || word.equals("false")) {
            throw syntax(t, "no viable alternative at input " + t.describe());
        }
        if (peek().isSymbol(".")) return;
        if (RESERVED_TYPE_NAMES.contains(word)) throw new SyntaxException("Invalid (reserved) user type name " + t.text());
        if (NOT_TYPE_NAMES.contains(word)) throw unexpected("'.'");
    }

    // ---------------------------------------------------------------- selectors

    /** Cassandra's {@code selectionAddition}: left-associative, {@code * / %} binding tighter than {@code + -}. */
    private Selector selector() {
        Selector result = productSelector();
        while (peek().isSymbol("+") || peek().isSymbol("-")) {
            char op = next().text().charAt(0);
            result = new Selector.Arithmetic(op, result, productSelector());
        }
        return result;
    }

    private Selector productSelector() {
        Selector result = unarySelector();
        while (peek().isSymbol("*") || peek().isSymbol("/") || peek().isSymbol("%")) {
            char op = next().text().charAt(0);
            result = new Selector.Arithmetic(op, result, unarySelector());
        }
        return result;
    }

    /** A selector with its field, element and slice modifiers, or a negated one; a minus before a number is its sign. */
    private Selector unarySelector() {
        return nested(this::unarySelectorLevel);
    }

    private Selector unarySelectorLevel() {
        if (peek().isSymbol("-") && !isSignedConstant(peek(1))) {
            next();
            return new Selector.Negation(unarySelector());
        }
        Selector selector = primarySelector();
        while (true) {
            if (peek().isSymbol(".") && (peek(1).is(Token.Kind.IDENTIFIER) || peek(1).is(Token.Kind.QUOTED_NAME))) {
                next();
                selector = new Selector.Field(selector, identifier("field name"));
            } else if (acceptSymbol("[")) {
                selector = elementOrSlice(selector);
            } else {
                return selector;
            }
        }
    }

    /** After {@code [}: {@code key]}, or a slice {@code from..to]}, {@code from..]} or {@code ..to]}. */
    private Selector elementOrSlice(Selector collection) {
        Term from = peek().isSymbol("..") ? null : term();
        if (!acceptSymbol("..")) {
            expectSymbol("]");
            return new Selector.Element(collection, from, null, false);
        }
        Term to = from == null || !peek().isSymbol("]") ? term() : null;
        expectSymbol("]");
        return new Selector.Element(collection, from, to, true);
    }

    private static boolean isSignedConstant(Token t) {
        return t.is(Token.Kind.INTEGER) || t.is(Token.Kind.FLOAT) || t.is(Token.Kind.DURATION) || t.isWord("nan")
                || t.isWord("infinity");
    }

    private Selector primarySelector() {
        Token t = peek();
        if (t.isWord("count") && peek(1).isSymbol("(")
                && (peek(2).isSymbol("*") || peek(2).is(Token.Kind.INTEGER) && peek(2).text().equals("1")) && peek(3).isSymbol(")")) {
            index += 4;
            return new Selector.CountRows();
        }
        if (t.isWord("cast") && peek(1).isSymbol("(")) {
            next();
            next();
            Selector inner = selector();
            expectWord("as");
            String type = type();
            expectSymbol(")");
            return new Selector.Cast(inner, type);
        }
        if ((t.is(Token.Kind.IDENTIFIER) || t.is(Token.Kind.QUOTED_NAME)) && !isConstantWord(t)) {
            if (peek(1).isSymbol("(")) {
                String name = functionName(next());
                return functionSelector(null, name);
            }
            if (peek(1).isSymbol(".") && peek(3).isSymbol("(")) {
                String keyspace = identifier("keyspace name");
                expectSymbol(".");
                String name = functionName(next());
                return functionSelector(keyspace, name);
            }
            return new Selector.Column(identifier("column name"));
        }
        if (t.isSymbol("(")) return typeHintOrParenthesised();
        if (t.isSymbol("[")) {
            next();
            List<Selector> elements = selectorsUntil("]");
            return new Selector.ListLiteral(elements);
        }
        if (t.isSymbol("{")) return setOrMapSelector();
        return new Selector.Value(simpleTerm());
    }

    /** Cassandra's {@code selectionTypeHint}, {@code (type) selector}, else a selector in parentheses or a tuple. */
    private Selector typeHintOrParenthesised() {
        next();
        int start = index;
        String type = typeBeforeSelector();
        if (type != null) return new Selector.TypeHint(type, primarySelector());
        index = start;
        List<Selector> elements = new ArrayList<>();
        do elements.add(selector()); while (acceptSymbol(","));
        expectSymbol(")");
        return new Selector.Parenthesised(List.copyOf(elements));
    }

    /** After '(': a type, its ')' and the start of a selector follow; the type, past the ')', or null. */
    private String typeBeforeSelector() {
        if (!(peek().is(Token.Kind.IDENTIFIER) || peek().is(Token.Kind.QUOTED_NAME))) return null;
        try {
            String type = type();
            if (!acceptSymbol(")")) return null;
            Token t = peek();
            boolean startsSelector = t.is(Token.Kind.IDENTIFIER) && !t.isWord("from") && !t.isWord("as")
                    || t.is(Token.Kind.QUOTED_NAME) || t.is(Token.Kind.STRING) || t.is(Token.Kind.INTEGER) || t.is(Token.Kind.FLOAT)
                    || t.is(Token.Kind.HEX) || t.is(Token.Kind.UUID) || t.is(Token.Kind.DURATION) || t.is(Token.Kind.QMARK)
                    || t.isSymbol(":") || t.isSymbol("(") || t.isSymbol("[") || t.isSymbol("{")
                    || t.isSymbol("-") && isSignedConstant(peek(1));
            return startsSelector ? type : null;
        } catch (SyntaxException e) {
            return null;
        }
    }

    private Selector setOrMapSelector() {
        next();
        if (acceptSymbol("}")) return new Selector.SetLiteral(List.of());
        Selector first = selector();
        if (!acceptSymbol(":")) {
            List<Selector> elements = new ArrayList<>(List.of(first));
            while (acceptSymbol(",")) elements.add(selector());
            expectSymbol("}");
            return new Selector.SetLiteral(List.copyOf(elements));
        }
        List<Selector> keys = new ArrayList<>(List.of(first));
        List<Selector> values = new ArrayList<>(List.of(selector()));
        while (acceptSymbol(",")) {
            keys.add(selector());
            expectSymbol(":");
            values.add(selector());
        }
        expectSymbol("}");
        return new Selector.MapLiteral(List.copyOf(keys), List.copyOf(values));
    }

    /** Selectors separated by commas up to {@code close}, which is consumed; none if it comes first. */
    private List<Selector> selectorsUntil(String close) {
        List<Selector> elements = new ArrayList<>();
        if (!peek().isSymbol(close)) {
            do elements.add(selector()); while (acceptSymbol(","));
        }
        expectSymbol(close);
        return List.copyOf(elements);
    }

    private Selector functionSelector(String keyspace, String name) {
        expectSymbol("(");
        List<Selector> args = new ArrayList<>();
        if (!peek().isSymbol(")")) {
            do args.add(selector()); while (acceptSymbol(","));
        }
        expectSymbol(")");
        return new Selector.Function(keyspace, name, List.copyOf(args));
    }

    private String functionName(Token t) {
        if (t.is(Token.Kind.QUOTED_NAME)) return t.text();
        if (t.is(Token.Kind.IDENTIFIER)) return lower(t.text());
        index--;
        throw unexpected("a function name");
    }

    // ---------------------------------------------------------------- terms

    private Term term() {
        return continueArithmetic(simpleTerm());
    }

    private Term continueArithmetic(Term left) {
        Term result = left;
        while (isArithmetic(peek())) {
            char op = next().text().charAt(0);
            Term right = simpleTerm();
            while ((op == '+' || op == '-') && isArithmetic(peek()) && "*/%".indexOf(peek().text().charAt(0)) >= 0) {
                char higher = next().text().charAt(0);
                right = new Term.Arithmetic(higher, right, simpleTerm());
            }
            result = new Term.Arithmetic(op, result, right);
        }
        return result;
    }

    private static boolean isArithmetic(Token t) {
        return t.kind() == Token.Kind.SYMBOL && t.text().length() == 1 && "+-*/%".contains(t.text());
    }

    private Term simpleTerm() {
        return nested(this::simpleTermLevel);
    }

    /** Parses one level deeper into a term, selector or type: refused beyond {@link #NESTING_MAX}, as a syntax error. */
    private <T> T nested(java.util.function.Supplier<T> level) {
        if (nesting >= NESTING_MAX)
            throw syntax(peek(), "nesting too deep: terms, selectors and types nest at most " + NESTING_MAX + " levels");
        nesting++;
        try {
            return level.get();
        } finally {
            nesting--;
        }
    }

    private Term simpleTermLevel() {
        Token t = next();
        switch (t.kind()) {
            case STRING: return new Term.Constant(ConstantKind.STRING, t.text());
            case INTEGER: return new Term.Constant(ConstantKind.INTEGER, t.text());
            case FLOAT: return floatConstant(t.text());
            case HEX: return new Term.Constant(ConstantKind.HEX, t.text());
            case UUID: return new Term.Constant(ConstantKind.UUID, t.text());
            case DURATION: return new Term.Constant(ConstantKind.DURATION, t.text());
            case QMARK: return new Term.BindMarker(markers++, null);
            case SYMBOL: return t.isSymbol(":") ? new Term.BindMarker(markers++, markerName()) : symbolTerm(t);
            case IDENTIFIER: return wordTerm(t);
            case QUOTED_NAME:
                if (peek().isSymbol("(")) {
                    index--;
                    return functionCall(null);
                }
                if (peek().isSymbol(".") && peek(2).isSymbol("(")) {
                    next();
                    return functionCall(t.text());
                }
                break;
            default: break;
        }
        index--;
        throw unexpected("a value");
    }

    /**
     * A float constant. One beyond double's range fails the statement as it fails Cassandra's parser, which compares
     * each float constant with its double value as a BigDecimal (its preferred type), and Infinity is no BigDecimal.
     */
    private Term.Constant floatConstant(String digits) {
        try {
            java.math.BigDecimal.valueOf(Double.parseDouble(digits));
        } catch (NumberFormatException e) {
            throw new SyntaxException(String.format("Failed parsing statement: [%s] reason: %s %s",
                    text, e.getClass().getSimpleName(), e.getMessage()));
        }
        return new Term.Constant(ConstantKind.FLOAT, digits);
    }

    private Term symbolTerm(Token t) {
        switch (t.text()) {
            case "-": {
                Token n = peek();
                if (n.is(Token.Kind.FLOAT)) {
                    next();
                    return floatConstant("-" + n.text());
                }
                if (n.is(Token.Kind.INTEGER) || n.is(Token.Kind.DURATION)) {
                    next();
                    return new Term.Constant(n.is(Token.Kind.INTEGER) ? ConstantKind.INTEGER : ConstantKind.DURATION, "-" + n.text());
                }
                if (n.isWord("nan") || n.isWord("infinity")) {
                    next();
                    return new Term.Constant(ConstantKind.FLOAT, "-" + (n.isWord("nan") ? "NaN" : "Infinity"));
                }
                return new Term.Negation(simpleTerm());
            }
            case "[": {
                List<Term> elements = new ArrayList<>();
                if (!peek().isSymbol("]")) {
                    do elements.add(term()); while (acceptSymbol(","));
                }
                expectSymbol("]");
                return new Term.ListLiteral(List.copyOf(elements));
            }
            case "{": return braces();
            case "(": {
                if ((peek().is(Token.Kind.IDENTIFIER) || peek().is(Token.Kind.QUOTED_NAME)) && looksLikeTypeHint()) {
                    String type = type();
                    expectSymbol(")");
                    return new Term.TypeHint(type, simpleTerm());
                }
                List<Term> elements = new ArrayList<>();
                do elements.add(term()); while (acceptSymbol(","));
                expectSymbol(")");
                return new Term.TupleLiteral(List.copyOf(elements));
            }
            default:
                index--;
                throw unexpected("a value");
        }
    }

    /** After '(' : a type followed by ')' and then a value, e.g. {@code (int) ?} or {@code (frozen<list<int>>) [1]}. */
    private boolean looksLikeTypeHint() {
        int depth = 0;
        for (int i = index; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("<")) depth++;
            else if (t.isSymbol(">")) depth--;
            else if (t.isSymbol(")") && depth == 0) {
                Token after = tokens.get(Math.min(i + 1, tokens.size() - 1));
                Token next = tokens.get(Math.min(i + 2, tokens.size() - 1));
                // a word after the type is a function's name, (int) abs(-2) or (int) system.abs(-2), or a constant word
                boolean call = next.isSymbol("(") || next.isSymbol(".");
                return !(after.is(Token.Kind.EOF) || after.isSymbol(",") || after.isSymbol(")") || after.isSymbol(";")
                        || after.isSymbol("]") || after.isSymbol("}") || after.is(Token.Kind.IDENTIFIER) && !isConstantWord(after) && !call);
            } else if (!(t.is(Token.Kind.IDENTIFIER) || t.is(Token.Kind.QUOTED_NAME) || t.isSymbol(",") || t.isSymbol(".")
                    || t.is(Token.Kind.INTEGER) && depth > 0)) {
                return false;
            } else if (t.isSymbol(",") && depth == 0) {
                return false;
            }
        }
        return false;
    }

    private Term braces() {
        if (acceptSymbol("}")) return new Term.MapLiteral(List.of(), List.of());
        Token first = peek();
        if ((first.is(Token.Kind.IDENTIFIER) || first.is(Token.Kind.QUOTED_NAME)) && !isConstantWord(first) && peek(1).isSymbol(":")) {
            List<String> fields = new ArrayList<>();
            List<Term> values = new ArrayList<>();
            do {
                fields.add(identifier("field name"));
                expectSymbol(":");
                values.add(term());
            } while (acceptSymbol(","));
            expectSymbol("}");
            return new Term.UdtLiteral(List.copyOf(fields), List.copyOf(values));
        }
        Term firstTerm = term();
        if (acceptSymbol(":")) {
            List<Term> keys = new ArrayList<>();
            List<Term> values = new ArrayList<>();
            keys.add(firstTerm);
            values.add(term());
            while (acceptSymbol(",")) {
                keys.add(term());
                expectSymbol(":");
                values.add(term());
            }
            expectSymbol("}");
            return new Term.MapLiteral(List.copyOf(keys), List.copyOf(values));
        }
        List<Term> elements = new ArrayList<>();
        elements.add(firstTerm);
        while (acceptSymbol(",")) elements.add(term());
        expectSymbol("}");
        return new Term.SetLiteral(List.copyOf(elements));
    }

    private Term wordTerm(Token t) {
        String word = lower(t.text());
        switch (word) {
            case "true", "false": return new Term.Constant(ConstantKind.BOOLEAN, word);
            case "null": return new Term.Null();
            case "nan": return new Term.Constant(ConstantKind.FLOAT, "NaN");
            case "infinity": return new Term.Constant(ConstantKind.FLOAT, "Infinity");
            default: break;
        }
        if (peek().isSymbol("(")) {
            index--;
            return functionCall(null);
        }
        if (peek().isSymbol(".") && peek(2).isSymbol("(")) {
            String keyspace = lower(t.text());
            next();
            return functionCall(keyspace);
        }
        index--;
        if (isLetReference(0)) {
            Statement.RowReference reference = rowReference();
            return new Term.LetReference(reference.let(), reference.column());
        }
        throw unexpected("a value (a column name is not allowed here)");
    }

    /** {@code ks.} before a function name, or null when the name is unqualified. */
    private String acceptKeyspacePrefix() {
        if (!peek(1).isSymbol(".")) return null;
        String keyspace = identifier("keyspace name");
        expectSymbol(".");
        return keyspace;
    }

    private Term functionCall(String keyspace) {
        String name = functionName(next());
        expectSymbol("(");
        List<Term> args = new ArrayList<>();
        if (!peek().isSymbol(")")) {
            do args.add(term()); while (acceptSymbol(","));
        }
        expectSymbol(")");
        return new Term.FunctionCall(keyspace, name, List.copyOf(args));
    }

    /** Cassandra's INTEGER token, which carries its minus sign: {@code 5} or {@code -5}. */
    private Term integerLiteral() {
        boolean negative = peek().isSymbol("-") && peek(1).is(Token.Kind.INTEGER);
        if (negative) next();
        if (!peek().is(Token.Kind.INTEGER)) throw unexpected("an integer");
        return new Term.Constant(ConstantKind.INTEGER, (negative ? "-" : "") + next().text());
    }

    /** Cassandra's {@code intValue}: an integer literal or a bind marker, as USING TTL and LIMIT take. */
    private Term intValue() {
        return markerNext() ? simpleTerm() : integerLiteral();
    }

    private static boolean isConstantWord(Token t) {
        if (!t.is(Token.Kind.IDENTIFIER)) return false;
        String word = lower(t.text());
        return word.equals("true") || word.equals("false") || word.equals("null") || word.equals("nan") || word.equals("infinity");
    }

    /** Whether a bind marker comes next: {@code ?} or {@code :name}. */
    private boolean markerNext() {
        Token t = peek();
        return t.is(Token.Kind.QMARK) || t.isSymbol(":") && (peek(1).is(Token.Kind.IDENTIFIER) || peek(1).is(Token.Kind.QUOTED_NAME));
    }

    /**
     * The name after a marker's {@code :}. The colon is a token of its own, as in Cassandra's grammar ({@code ':'
     * noncol_ident}), so {@code {0:false}} is a map entry and {@code {f:fe2b4360-...}} a field with a UUID, not markers.
     */
    private String markerName() {
        Token name = next();
        if (name.is(Token.Kind.QUOTED_NAME)) return name.text();
        if (name.is(Token.Kind.IDENTIFIER)) return lower(name.text());
        throw new SyntaxException(String.format("line %d:%d no viable alternative at input ':%s' (a bind marker needs a name)",
                name.line(), name.column(), name.text()));
    }

    // ---------------------------------------------------------------- identifiers and tokens

    private QualifiedName qualifiedName(String what) {
        String first = identifier(what);
        if (acceptSymbol(".")) return new QualifiedName(first, identifier(what));
        return new QualifiedName(null, first);
    }

    /**
     * {@code [ks.]name} of a user type (Cassandra's {@code userTypeName}): unquoted, the name may not be a native type
     * or one of the unreserved keywords that are not {@code basic_unreserved_keyword}s, nor a reserved type name.
     */
    private QualifiedName userTypeName() {
        String keyspace = peek(1).isSymbol(".") ? identifier("keyspace name") : null;
        if (keyspace != null) next();
        Token t = peek();
        if (t.is(Token.Kind.IDENTIFIER)) {
            String word = lower(t.text());
            if (CqlTypes.nativeType(word) != null || NOT_TYPE_NAMES.contains(word)) {
                throw syntax(t, "no viable alternative at input " + t.describe());
            }
            if (RESERVED_TYPE_NAMES.contains(word)) throw new SyntaxException("Invalid (reserved) user type name " + t.text());
        }
        return new QualifiedName(keyspace, identifier("type name"));
    }

    private String identifier(String what) {
        Token t = next();
        if (t.is(Token.Kind.QUOTED_NAME)) return t.text();
        if (t.is(Token.Kind.IDENTIFIER)) {
            String word = lower(t.text());
            if (!RESERVED.contains(word) && !word.equals("true") && !word.equals("false")) return word;
            index--;
            throw syntax(t, "mismatched input " + t.describe() + " expecting " + what
                    + " (" + t.text() + " is a reserved keyword; quote it to use it as a name)");
        }
        index--;
        throw unexpected(what);
    }

    private Token peek() {
        return tokens.get(Math.min(index, tokens.size() - 1));
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    /** Consumes a token; past the end it keeps returning EOF (and counting, so a step back is always exact). */
    private Token next() {
        return tokens.get(Math.min(index++, tokens.size() - 1));
    }

    private Token previous() {
        return tokens.get(Math.max(0, index - 1));
    }

    private boolean acceptWord(String word) {
        if (peek().isWord(word)) {
            next();
            return true;
        }
        return false;
    }

    private boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            next();
            return true;
        }
        return false;
    }

    private void expectWord(String word) {
        if (!acceptWord(word)) throw unexpected(word.toUpperCase(Locale.ROOT));
    }

    private void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) throw unexpected("'" + symbol + "'");
    }

    private void expectEnd() {
        if (!peek().is(Token.Kind.EOF)) throw unexpected("end of statement");
    }

    private SyntaxException unexpected(String expected) {
        Token t = peek();
        String found = t.is(Token.Kind.EOF) ? "end of input" : "input " + t.describe();
        return syntax(t, "mismatched " + found + " expecting " + expected);
    }

    private SyntaxException syntax(Token at, String message) {
        return new SyntaxException(String.format("line %d:%d %s (%s)", at.line(), at.column(), message, excerpt(at)));
    }

    /** The statement around the offending token, with the token in brackets, as Cassandra shows it. */
    private String excerpt(Token at) {
        int start = Math.max(0, at.offset() - 40);
        String before = text.substring(start, Math.min(at.offset(), text.length())).replaceAll("\\s+", " ");
        if (at.is(Token.Kind.EOF)) return (start > 0 ? "..." : "") + before + "[]";
        int end = at.offset() + Math.max(1, Math.min(at.text().length(), 40));
        String token = text.substring(at.offset(), Math.min(end, text.length()));
        return (start > 0 ? "..." : "") + before + "[" + token + "]" + (end < text.length() ? "..." : "");
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}

"""Error responses: the driver must see the right exception class and protocol error code."""

import pytest
from cassandra import InvalidRequest
from cassandra.protocol import SyntaxException

from conftest import error_code

SYNTAX = 0x2000
INVALID = 0x2200


def expect(session, exception, code, query, *fragments, parameters=None):
    with pytest.raises(exception) as err:
        session.execute(query, parameters)
    assert error_code(err.value) == code, "%s: got code 0x%04x" % (query, error_code(err.value))
    for fragment in fragments:
        assert fragment in str(err.value), \
            "%r not in error for %s: %s" % (fragment, query, err.value)
    return err.value


@pytest.fixture(scope="module")
def target(session):
    session.execute("CREATE TABLE IF NOT EXISTS errors_target (pk int, c int, v int, t text, "
                    "PRIMARY KEY (pk, c))")
    return "errors_target"


def test_syntax_errors(session, target):
    expect(session, SyntaxException, SYNTAX, "SELEC * FROM %s" % target, "Syntax error in CQL query")
    expect(session, SyntaxException, SYNTAX, "SELECT * FROM %s WHERE" % target)
    expect(session, SyntaxException, SYNTAX, "INSERT INTO %s (pk, c) VALUES (1, 2" % target)
    expect(session, SyntaxException, SYNTAX, "CREATE TABLE %s_x (pk int PRIMARY KEY" % target)
    with pytest.raises(SyntaxException) as err:
        session.prepare("SELECT * FROM %s WHERE pk = = 1" % target)
    assert error_code(err.value) == SYNTAX


def test_unknown_keyspace_table_column(session, target):
    expect(session, InvalidRequest, INVALID, "SELECT * FROM no_such_keyspace_x.t", "no_such_keyspace_x")
    expect(session, InvalidRequest, INVALID, "SELECT * FROM no_such_table_x", "no_such_table_x")
    expect(session, InvalidRequest, INVALID, "INSERT INTO no_such_table_x (pk) VALUES (1)", "no_such_table_x")
    expect(session, InvalidRequest, INVALID, "SELECT nope FROM %s" % target, "nope")
    expect(session, InvalidRequest, INVALID, "SELECT * FROM %s WHERE pk = 1 AND nope = 2" % target, "nope")
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, c, nope) VALUES (1, 1, 1)" % target, "nope")
    expect(session, InvalidRequest, INVALID, "UPDATE %s SET nope = 1 WHERE pk = 1 AND c = 1" % target, "nope")
    expect(session, InvalidRequest, INVALID, "USE no_such_keyspace_x", "no_such_keyspace_x")
    with pytest.raises(InvalidRequest) as err:
        session.prepare("SELECT * FROM no_such_table_x")
    assert error_code(err.value) == INVALID


def test_wrong_literal_type(session, target):
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, c, v) VALUES (1, 1, 'text')" % target, "v")
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, c, t) VALUES (1, 1, 42)" % target, "t")
    expect(session, InvalidRequest, INVALID, "SELECT * FROM %s WHERE pk = 'one'" % target, "pk")


def test_wrong_bound_value_type(session, target):
    prepared = session.prepare("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)" % target)
    # The driver itself refuses to serialise a str as an int ...
    with pytest.raises(TypeError):
        session.execute(prepared, (1, 1, "not an int"))
    # ... so send bytes of the wrong size for an int and let the server judge them.
    bound = prepared.bind((1, 1, 7))
    bound.values[2] = (7).to_bytes(8, "big")
    with pytest.raises(InvalidRequest) as err:
        session.execute(bound)
    assert error_code(err.value) == INVALID
    assert session.execute("SELECT * FROM %s WHERE pk = 1 AND c = 1" % target).one() is None


def test_missing_key_parts(session, target):
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (c, v) VALUES (1, 1)" % target, "pk")
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, v) VALUES (1, 1)" % target, "c")
    expect(session, InvalidRequest, INVALID, "UPDATE %s SET v = 1 WHERE c = 1" % target, "pk")
    expect(session, InvalidRequest, INVALID, "DELETE FROM %s WHERE c = 1" % target, "pk")
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, c, v) VALUES (null, 1, 1)" % target)
    prepared = session.prepare("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)" % target)
    with pytest.raises(InvalidRequest) as err:
        session.execute(prepared, (None, 1, 1))
    assert error_code(err.value) == INVALID


def test_invalid_requests_of_other_kinds(session, target, table):
    expect(session, InvalidRequest, INVALID, "SELECT * FROM %s WHERE v = 1" % target, "ALLOW FILTERING")
    expect(session, InvalidRequest, INVALID, "SELECT * FROM %s WHERE pk = 1 ORDER BY v" % target)
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, c, v) VALUES (1, 1, 1, 1)" % target)
    counter = table("pk int PRIMARY KEY, n counter")
    expect(session, InvalidRequest, INVALID, "INSERT INTO %s (pk, n) VALUES (1, 1)" % counter)
    expect(session, InvalidRequest, INVALID, "UPDATE %s SET n = 5 WHERE pk = 1" % counter)
    # The session survives every error above.
    assert session.execute("SELECT COUNT(*) FROM %s" % target).one()[0] >= 0

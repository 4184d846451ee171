"""Cassandra 6.0's BEGIN TRANSACTION ... COMMIT TRANSACTION, prepared and not (Ballot runs the subset of docs/txn.md §11.2)."""

from decimal import Decimal

import pytest
from cassandra import ConsistencyLevel, InvalidRequest
from cassandra.query import SimpleStatement

from conftest import run_transfers

TRANSFER = """BEGIN TRANSACTION
  LET src = (SELECT balance FROM {accounts} WHERE id = ?);
  LET dst = (SELECT balance FROM {accounts} WHERE id = ?);
  SELECT src.balance, dst.balance;
  IF src IS NOT NULL AND dst IS NOT NULL AND src.balance >= ? THEN
    UPDATE {accounts} SET balance -= ? WHERE id = ?;
    UPDATE {accounts} SET balance += ? WHERE id = ?;
  END IF
COMMIT TRANSACTION"""


def serial_balance(session, accounts, account):
    row = session.execute(SimpleStatement("SELECT balance FROM %s WHERE id = %d" % (accounts, account),
                                          consistency_level=ConsistencyLevel.SERIAL)).one()
    return None if row is None else row.balance


def test_prepared_transfer_answers_the_values_before_it(session, table):
    accounts = table("id int PRIMARY KEY, balance decimal")
    session.execute("INSERT INTO %s (id, balance) VALUES (1, 100)" % accounts)
    session.execute("INSERT INTO %s (id, balance) VALUES (2, 50)" % accounts)
    transfer = session.prepare(TRANSFER.format(accounts=accounts))
    assert [c[2] for c in transfer.result_metadata] == ["src.balance", "dst.balance"]
    assert len(transfer.column_metadata) == 7, "every marker, in text order"

    def move(amount):
        a = Decimal(amount)
        return session.execute(transfer, (1, 2, a, a, 1, a, 2)).one()

    assert tuple(move(30)) == (Decimal(100), Decimal(50))
    assert tuple(move(80)) == (Decimal(70), Decimal(80)), "refused: the condition fails on the values shown"
    assert serial_balance(session, accounts, 1) == Decimal(70)
    assert serial_balance(session, accounts, 2) == Decimal(80)


def test_returning_select_and_void(session, table):
    accounts = table("id int PRIMARY KEY, balance decimal")
    session.execute("INSERT INTO %s (id, balance) VALUES (5, 5)" % accounts)
    rows = session.execute("BEGIN TRANSACTION SELECT id, balance FROM %s WHERE id = 5; "
                           "UPDATE %s SET balance = 6 WHERE id = 5; COMMIT TRANSACTION" % (accounts, accounts))
    assert [(r.id, r.balance) for r in rows] == [(5, Decimal(5))]
    void = session.execute("BEGIN TRANSACTION INSERT INTO %s (id, balance) VALUES (6, 1); COMMIT TRANSACTION" % accounts)
    assert void.column_names is None or list(void.column_names) == []
    assert serial_balance(session, accounts, 5) == Decimal(6)
    assert serial_balance(session, accounts, 6) == Decimal(1)


def test_updates_write_let_values_read_on_their_partition(session, table):
    accounts = table("id int PRIMARY KEY, balance decimal")
    session.execute("INSERT INTO %s (id, balance) VALUES (1, 100)" % accounts)
    session.execute("INSERT INTO %s (id, balance) VALUES (2, 50)" % accounts)
    move = session.prepare("""BEGIN TRANSACTION
  LET src = (SELECT balance FROM {a} WHERE id = ?);
  LET dst = (SELECT balance FROM {a} WHERE id = ?);
  IF (decimal) ? <= src.balance THEN
    UPDATE {a} SET balance = src.balance - (decimal) ? WHERE id = ?;
    UPDATE {a} SET balance = dst.balance + (decimal) ? WHERE id = ?;
  END IF
COMMIT TRANSACTION""".format(a=accounts))
    assert len(move.column_metadata) == 7, "only the client's markers"
    session.execute(move, (1, 2, Decimal(30), Decimal(30), 1, Decimal(30), 2))
    session.execute(move, (1, 2, Decimal(90), Decimal(90), 1, Decimal(90), 2))  # 70 < 90: not applied
    assert serial_balance(session, accounts, 1) == Decimal(70)
    assert serial_balance(session, accounts, 2) == Decimal(80)
    with pytest.raises(InvalidRequest, match="is read from another partition"):
        session.execute("BEGIN TRANSACTION LET src = (SELECT balance FROM %s WHERE id = 1); "
                        "UPDATE %s SET balance = src.balance WHERE id = 2; COMMIT TRANSACTION" % (accounts, accounts))


def test_concurrent_transfers_keep_the_total(session, table):
    accounts = table("id int PRIMARY KEY, balance decimal")
    for account in range(4):
        session.execute("INSERT INTO %s (id, balance) VALUES (%d, 100)" % (accounts, account))
    transfer = session.prepare(TRANSFER.format(accounts=accounts))

    def move(rng):
        a, b = rng.sample(range(4), 2)
        amount = Decimal(rng.randint(1, 30))
        session.execute(transfer, (a, b, amount, amount, a, amount, b))

    run_transfers(4, 15, move)
    assert sum(serial_balance(session, accounts, a) for a in range(4)) == Decimal(400)


def test_refuses_what_cassandra_refuses(session, table):
    accounts = table("id int PRIMARY KEY, balance decimal")
    with pytest.raises(InvalidRequest, match="Transaction contains no reads or writes"):
        session.execute("BEGIN TRANSACTION LET a = (SELECT * FROM %s WHERE id = 1); COMMIT TRANSACTION" % accounts)
    with pytest.raises(InvalidRequest, match="may not specify their own conditions"):
        session.execute("BEGIN TRANSACTION UPDATE %s SET balance = 1 WHERE id = 1 IF EXISTS; COMMIT TRANSACTION" % accounts)
    with pytest.raises(InvalidRequest, match="Cannot resolve reference to tuple 'b'"):
        session.execute("BEGIN TRANSACTION SELECT b.balance; COMMIT TRANSACTION")

package compat

import (
	"fmt"
	"strings"
	"testing"
)

// Cassandra 6.0's BEGIN TRANSACTION through gocql, as the ledger's transfer uses it: LETs, an IF over them, -= and +=,
// the LET values of before the transaction as the answer (also when the IF fails), and VOID without a SELECT. gocql
// prepares only statements it recognises (SELECT, INSERT, UPDATE, DELETE, BATCH) and sends no values with the others,
// so the values are literals here.
func TestTransactionStatement(t *testing.T) {
	accounts := newTable(t, "id int PRIMARY KEY, balance decimal")
	ledger := newTable(t, "id int, seq int, amount decimal, PRIMARY KEY (id, seq)")
	exec(t, "INSERT INTO "+accounts+" (id, balance) VALUES (1, 100)")
	exec(t, "INSERT INTO "+accounts+" (id, balance) VALUES (2, 50)")
	transfer := strings.ReplaceAll(strings.ReplaceAll(`BEGIN TRANSACTION
  LET src = (SELECT balance FROM ACCOUNTS WHERE id = 1);
  LET dst = (SELECT balance FROM ACCOUNTS WHERE id = 2);
  SELECT src.balance, dst.balance;
  IF src IS NOT NULL AND dst IS NOT NULL AND src.balance >= AMOUNT THEN
    UPDATE ACCOUNTS SET balance -= AMOUNT WHERE id = 1;
    UPDATE ACCOUNTS SET balance += AMOUNT WHERE id = 2;
    INSERT INTO LEDGER (id, seq, amount) VALUES (1, SEQ, -AMOUNT);
  END IF
COMMIT TRANSACTION`, "ACCOUNTS", accounts), "LEDGER", ledger)
	move := func(amount string, seq int) (string, string) {
		var src, dst = decimal("0"), decimal("0")
		stmt := strings.ReplaceAll(strings.ReplaceAll(transfer, "AMOUNT", amount), "SEQ", fmt.Sprint(seq))
		if err := session.Query(stmt).Scan(&src, &dst); err != nil {
			t.Fatalf("transfer %s: %v", amount, err)
		}
		return src.String(), dst.String()
	}
	src, dst := move("30", 1)
	assertEqual(t, "values before the applied transfer", []string{src, dst}, []string{"100", "50"})
	src, _ = move("80", 2)
	assertEqual(t, "the value the refused transfer's condition failed on", src, "70")
	var balance = decimal("0")
	scan(t, "SELECT balance FROM "+accounts+" WHERE id = 2", nil, &balance)
	assertEqual(t, "destination after one applied transfer", balance.String(), "80")
	var entries int
	scan(t, "SELECT COUNT(*) FROM "+ledger+" WHERE id = 1", nil, &entries)
	assertEqual(t, "ledger entries", entries, 1)

	iter := session.Query(fmt.Sprintf("BEGIN TRANSACTION INSERT INTO %s (id, balance) VALUES (3, 1); COMMIT TRANSACTION", accounts)).Iter()
	if cols := iter.Columns(); len(cols) != 0 {
		t.Fatalf("a transaction without SELECT answers VOID; got columns %v", cols)
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	err := session.Query(fmt.Sprintf("BEGIN TRANSACTION UPDATE %s SET balance = 1 WHERE id = 1 IF balance = 2; COMMIT TRANSACTION", accounts)).Exec()
	requireErrCode(t, err, 0x2200, "Updates within transactions may not specify their own conditions")
}

// CEP-15's example through gocql: updates that write LET values read on their own partition (SET miles = car.miles + 30).
func TestTransactionWritesLetValues(t *testing.T) {
	cars := newTable(t, "model text PRIMARY KEY, miles int, running boolean")
	exec(t, "INSERT INTO "+cars+" (model, miles, running) VALUES ('pinto', 100, true)")
	drive := strings.ReplaceAll(`BEGIN TRANSACTION
  LET car = (SELECT miles, running FROM CARS WHERE model = 'pinto');
  IF car.running = true THEN
    UPDATE CARS SET miles = car.miles + 30 WHERE model = 'pinto';
  END IF
COMMIT TRANSACTION`, "CARS", cars)
	for i := 0; i < 2; i++ {
		exec(t, drive)
	}
	var miles int
	scan(t, "SELECT miles FROM "+cars+" WHERE model = 'pinto'", nil, &miles)
	assertEqual(t, "miles after two drives", miles, 160)
}

package compat

import (
	"encoding/binary"
	"errors"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

func errorsTarget(t *testing.T) string {
	t.Helper()
	exec(t, "CREATE TABLE IF NOT EXISTS errors_target (pk int, c int, v int, t text, PRIMARY KEY (pk, c))")
	return "errors_target"
}

func TestSyntaxErrors(t *testing.T) {
	e := errorsTarget(t)
	for _, stmt := range []string{
		"SELEC * FROM " + e,
		"SELECT * FROM " + e + " WHERE",
		"INSERT INTO " + e + " (pk, c) VALUES (1, 2",
		"SELECT * FROM " + e + " WHERE pk = = ?", // prepared, as gocql prepares statements with values
	} {
		var values []interface{}
		if stmt[len(stmt)-1] == '?' {
			values = []interface{}{1}
		}
		err := session.Query(stmt, values...).Exec()
		requireErrCode(t, err, gocql.ErrCodeSyntax)
		var syntax *gocql.RequestErrSyntax
		if !errors.As(err, &syntax) {
			t.Errorf("%s: want *RequestErrSyntax, got %T", stmt, err)
		}
	}
}

func TestUnknownKeyspaceTableColumn(t *testing.T) {
	e := errorsTarget(t)
	for stmt, name := range map[string]string{
		"SELECT * FROM no_such_keyspace_x.t":                   "no_such_keyspace_x",
		"SELECT * FROM no_such_table_x":                        "no_such_table_x",
		"INSERT INTO no_such_table_x (pk) VALUES (1)":          "no_such_table_x",
		"SELECT nope FROM " + e:                                "nope",
		"SELECT * FROM " + e + " WHERE pk = 1 AND nope = 2":    "nope",
		"INSERT INTO " + e + " (pk, c, nope) VALUES (1, 1, 1)": "nope",
		"UPDATE " + e + " SET nope = 1 WHERE pk = 1 AND c = 1": "nope",
		"SELECT * FROM no_such_table_x WHERE pk = ?":           "no_such_table_x", // fails at PREPARE
	} {
		var values []interface{}
		if stmt[len(stmt)-1] == '?' {
			values = []interface{}{1}
		}
		err := session.Query(stmt, values...).Exec()
		requireErrCode(t, err, gocql.ErrCodeInvalid, name)
		var invalid *gocql.RequestErrInvalid
		if !errors.As(err, &invalid) {
			t.Errorf("%s: want *RequestErrInvalid, got %T", stmt, err)
		}
	}
}

// wrongSize marshals to 8 bytes whatever the column type, so the server sees a
// bound value of the wrong type that no driver-side check has caught.
type wrongSize int64

func (w wrongSize) MarshalCQL(gocql.TypeInfo) ([]byte, error) {
	return binary.BigEndian.AppendUint64(nil, uint64(w)), nil
}

func TestWrongValueTypes(t *testing.T) {
	e := errorsTarget(t)
	requireErrCode(t, session.Query("INSERT INTO "+e+" (pk, c, v) VALUES (1, 1, 'text')").Exec(), gocql.ErrCodeInvalid, "v")
	requireErrCode(t, session.Query("INSERT INTO "+e+" (pk, c, t) VALUES (1, 1, 42)").Exec(), gocql.ErrCodeInvalid, "t")

	// The driver refuses to marshal a string for an int ...
	err := session.Query("INSERT INTO "+e+" (pk, c, v) VALUES (?, ?, ?)", 1, 1, "not an int").Exec()
	var reqErr gocql.RequestError
	if err == nil || errors.As(err, &reqErr) {
		t.Errorf("want a driver-side marshal error, got %v", err)
	}
	// ... so the server is given 8 bytes for an int.
	err = session.Query("INSERT INTO "+e+" (pk, c, v) VALUES (?, ?, ?)", 1, 1, wrongSize(7)).Exec()
	requireErrCode(t, err, gocql.ErrCodeInvalid)
	assertEqual(t, "nothing written", rowsOf(t, "SELECT * FROM "+e+" WHERE pk = 1 AND c = 1"), []string{})
}

func TestMissingKeyParts(t *testing.T) {
	e := errorsTarget(t)
	for stmt, fragment := range map[string]string{
		"INSERT INTO " + e + " (c, v) VALUES (1, 1)":  "pk",
		"INSERT INTO " + e + " (pk, v) VALUES (1, 1)": "c",
		"UPDATE " + e + " SET v = 1 WHERE c = 1":      "pk",
		"DELETE FROM " + e + " WHERE c = 1":           "pk",
	} {
		requireErrCode(t, session.Query(stmt).Exec(), gocql.ErrCodeInvalid, fragment)
	}
	requireErrCode(t, session.Query("INSERT INTO "+e+" (pk, c, v) VALUES (?, ?, ?)", nil, 1, 1).Exec(),
		gocql.ErrCodeInvalid)
	// The session survives every error above.
	var n int64
	scan(t, "SELECT COUNT(*) FROM "+e, nil, &n)
}

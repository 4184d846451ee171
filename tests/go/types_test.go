package compat

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"gopkg.in/inf.v0"
)

func bigInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

func decimal(s string) *inf.Dec {
	v, ok := new(inf.Dec).SetString(s)
	if !ok {
		panic(s)
	}
	return v
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// same compares a scanned value with the one written, by value.
func same(got, want interface{}) bool {
	switch w := want.(type) {
	case *big.Int:
		return got.(*big.Int).Cmp(w) == 0
	case *inf.Dec:
		return got.(*inf.Dec).Cmp(w) == 0
	case time.Time:
		return got.(time.Time).Equal(w)
	case net.IP:
		return got.(net.IP).Equal(w)
	case []byte:
		return bytes.Equal(got.([]byte), w)
	case float64:
		if math.IsNaN(w) {
			return math.IsNaN(got.(float64))
		}
	}
	return reflect.DeepEqual(got, want)
}

// wireTypeID is the [option] id of each native type in result metadata (native protocol spec, section 4.2.5.2).
// text is sent as varchar (0x000D), never as the legacy 0x000A.
var wireTypeID = map[string]int{
	"ascii": 0x01, "bigint": 0x02, "blob": 0x03, "boolean": 0x04, "counter": 0x05, "decimal": 0x06,
	"double": 0x07, "float": 0x08, "int": 0x09, "timestamp": 0x0B, "uuid": 0x0C, "text": 0x0D,
	"varint": 0x0E, "timeuuid": 0x0F, "inet": 0x10, "date": 0x11, "time": 0x12, "smallint": 0x13,
	"tinyint": 0x14, "duration": 0x15,
}

func TestNativeTypesRoundTrip(t *testing.T) {
	timeuuid, _ := gocql.ParseUUID("8d8ac610-566d-11e2-9a4b-0800200c9a66")
	cases := []struct {
		cql    string
		values []interface{}
	}{
		{"ascii", []interface{}{"", "plain ascii ~!@#", strings.Repeat("x", 1000)}},
		{"bigint", []interface{}{int64(0), int64(math.MinInt64), int64(math.MaxInt64)}},
		{"blob", []interface{}{[]byte{}, []byte{0, 1, 0xff}, bytes.Repeat([]byte{7}, 4096)}},
		{"boolean", []interface{}{true, false}},
		{"date", []interface{}{date(1970, 1, 1), date(2024, 2, 29), date(1000, 1, 1), date(9999, 12, 31)}},
		{"decimal", []interface{}{decimal("0"), decimal("-1.5"),
			decimal("123456789012345678901234567890.000000000000000001")}},
		{"double", []interface{}{0.0, -1.25, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.NaN()}},
		{"duration", []interface{}{gocql.Duration{}, gocql.Duration{Months: 1, Days: 2, Nanoseconds: 3_000_000_000},
			gocql.Duration{Months: -1, Days: -2, Nanoseconds: -3}}},
		{"float", []interface{}{float32(0), float32(-1.5), float32(math.MaxFloat32)}},
		{"inet", []interface{}{net.ParseIP("127.0.0.1").To4(), net.ParseIP("::1"), net.ParseIP("2001:db8::ff00:42:8329")}},
		{"int", []interface{}{0, math.MinInt32, math.MaxInt32}},
		{"smallint", []interface{}{int16(0), int16(math.MinInt16), int16(math.MaxInt16)}},
		{"text", []interface{}{"", "unicode: zażółć gęślą jaźń 日本語 🎉", `quote ' and " and \`}},
		{"time", []interface{}{time.Duration(0), 23*time.Hour + 59*time.Minute + 59*time.Second + 999999999}},
		{"timestamp", []interface{}{time.UnixMilli(0).UTC(), time.Date(2024, 6, 1, 12, 30, 45, 123e6, time.UTC),
			time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{"timeuuid", []interface{}{timeuuid, gocql.TimeUUID()}},
		{"tinyint", []interface{}{int8(0), int8(math.MinInt8), int8(math.MaxInt8)}},
		{"uuid", []interface{}{gocql.UUID{}, gocql.MustRandomUUID(), gocql.UUID{0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}},
		{"varint", []interface{}{big.NewInt(0), big.NewInt(-1), new(big.Int).Lsh(big.NewInt(1), 200),
			bigInt("-1606938044258990275541962092341162602522202993782792835301369")}},
	}
	for _, tc := range cases {
		tc := tc
		t.Run(tc.cql, func(t *testing.T) {
			name := newTable(t, "pk int PRIMARY KEY, v "+tc.cql)
			for i, v := range tc.values {
				exec(t, "INSERT INTO "+name+" (pk, v) VALUES (?, ?)", i, v)
			}
			iter := session.Query("SELECT v FROM " + name + " WHERE pk = ?")
			for i, want := range tc.values {
				got := reflect.New(reflect.TypeOf(want))
				if err := iter.Bind(i).Scan(got.Interface()); err != nil {
					t.Fatalf("read %s #%d: %v", tc.cql, i, err)
				}
				if !same(got.Elem().Interface(), want) {
					t.Errorf("%s: wrote %v, read %v", tc.cql, want, got.Elem().Interface())
				}
			}
			cols := session.Query("SELECT v FROM " + name + " LIMIT 1").Iter()
			typ := int(cols.Columns()[0].TypeInfo.Type())
			_ = cols.Close()
			assertEqual(t, "result metadata type id", fmt.Sprintf("0x%04x", typ), fmt.Sprintf("0x%04x", wireTypeID[tc.cql]))
		})
	}
}

func TestCounterRoundTrips(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, n counter")
	exec(t, "UPDATE "+name+" SET n = n + ? WHERE pk = 1", int64(math.MaxInt64))
	exec(t, "UPDATE "+name+" SET n = n - 5 WHERE pk = 2")
	var n int64
	scan(t, "SELECT n FROM "+name+" WHERE pk = 1", nil, &n)
	assertEqual(t, "counter 1", n, int64(math.MaxInt64))
	scan(t, "SELECT n FROM "+name+" WHERE pk = 2", nil, &n)
	assertEqual(t, "counter 2", n, int64(-5))
}

func TestCollectionsRoundTrip(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, l list<int>, s set<text>, m map<text, bigint>, mf map<int, frozen<list<int>>>")
	exec(t, "INSERT INTO "+name+" (pk, l, s, m, mf) VALUES (?, ?, ?, ?, ?)", 1,
		[]int{3, 1, 2, 1}, []string{"b", "a", "c"}, map[string]int64{"z": 1, "a": -2}, map[int][]int{1: {1, 2}})
	var l []int
	var s []string
	var m map[string]int64
	var mf map[int][]int
	scan(t, "SELECT l, s, m, mf FROM "+name+" WHERE pk = 1", nil, &l, &s, &m, &mf)
	assertEqual(t, "list keeps order and duplicates", l, []int{3, 1, 2, 1})
	assertEqual(t, "set comes back sorted", s, []string{"a", "b", "c"})
	assertEqual(t, "map", m, map[string]int64{"a": -2, "z": 1})
	assertEqual(t, "map of frozen list", mf, map[int][]int{1: {1, 2}})
}

func TestEmptyCollectionsReadBackAsNull(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, l list<int>, s set<int>, m map<int, int>, fl frozen<list<int>>")
	exec(t, "INSERT INTO "+name+" (pk, l, s, m, fl) VALUES (1, [], {}, {}, [])")
	row := map[string]interface{}{}
	if err := session.Query("SELECT l, s, m, fl FROM " + name + " WHERE pk = 1").MapScan(row); err != nil {
		t.Fatal(err)
	}
	var l, fl *[]int
	scan(t, "SELECT l, fl FROM "+name+" WHERE pk = 1", nil, &l, &fl)
	if l != nil {
		t.Errorf("empty non-frozen list should read back as null, got %v", *l)
	}
	if fl == nil || len(*fl) != 0 {
		t.Errorf("empty frozen list should read back as an empty list, got %v", fl)
	}
}

func TestFrozenCollectionsAsKeys(t *testing.T) {
	name := newTable(t, "pk frozen<list<int>>, c frozen<set<text>>, v frozen<map<int, frozen<set<int>>>>, PRIMARY KEY (pk, c)")
	exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (?, ?, ?)", []int{1, 2}, []string{"x"}, map[int][]int{1: {3, 2}})
	exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (?, ?, ?)", []int{1, 2}, []string{"b", "a"}, map[int][]int{})
	iter := session.Query("SELECT c, v FROM "+name+" WHERE pk = ?", []int{1, 2}).Iter()
	var c []string
	var v map[int][]int
	var got []string
	for iter.Scan(&c, &v) {
		got = append(got, fmt.Sprint(c, v))
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "rows", got, []string{"[a b] map[]", "[x] map[1:[2 3]]"})
}

func TestTupleRoundTrips(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, t tuple<int, text, frozen<list<double>>>")
	// gocql v2.1.2 cannot bind a whole tuple to one marker (it counts the tuple's elements as
	// values but marshals one value), so bind a tuple literal of element markers.
	exec(t, "INSERT INTO "+name+" (pk, t) VALUES (?, (?, ?, ?))", 1, 7, "seven", []float64{7.5})
	exec(t, "INSERT INTO "+name+" (pk, t) VALUES (2, (8, null, []))")
	exec(t, "INSERT INTO "+name+" (pk) VALUES (3)")
	var a *int
	var b *string
	var c []float64
	scan(t, "SELECT t FROM "+name+" WHERE pk = 1", nil, &a, &b, &c)
	assertEqual(t, "tuple 1", fmt.Sprintf("%v %v %v", *a, *b, c), "7 seven [7.5]")
	scan(t, "SELECT t FROM "+name+" WHERE pk = 2", nil, &a, &b, &c)
	if a == nil || *a != 8 || b != nil || len(c) != 0 {
		t.Errorf("tuple 2: got %v %v %v", a, b, c)
	}
	scan(t, "SELECT t FROM "+name+" WHERE pk = 3", nil, &a, &b, &c)
	if a != nil || b != nil || c != nil {
		t.Errorf("null tuple: got %v %v %v", a, b, c)
	}
}

// Vectors (Cassandra 5.0) of fixed- and variable-length elements: counters are laid out with a length each, as
// Cassandra's counter class declares no fixed length, and a set inside a bound vector keeps its order.
func TestVectorsRoundTrip(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, f vector<float, 3>, c vector<counter, 2>, s vector<text, 2>, n vector<set<int>, 2>")
	exec(t, "INSERT INTO "+name+" (pk, f, c, s, n) VALUES (?, ?, ?, ?, ?)", 1,
		[]float32{1.5, -2, 0}, []int64{5, -6}, []string{"a", ""}, [][]int{{9, 4}, {1}})
	var f []float32
	var c []int64
	var s []string
	var n [][]int
	scan(t, "SELECT f, c, s, n FROM "+name+" WHERE pk = 1", nil, &f, &c, &s, &n)
	assertEqual(t, "float vector", f, []float32{1.5, -2, 0})
	assertEqual(t, "counter vector", c, []int64{5, -6})
	assertEqual(t, "text vector", s, []string{"a", ""})
	assertEqual(t, "vector of sets as bound", n, [][]int{{9, 4}, {1}})
	exec(t, "INSERT INTO "+name+" (pk, c) VALUES (2, [7, 8])")
	scan(t, "SELECT c FROM "+name+" WHERE pk = 2", nil, &c)
	assertEqual(t, "counter vector literal", c, []int64{7, 8})
	err := session.Query("INSERT INTO " + name + " (pk, f) VALUES (3, [1, 2])").Exec()
	requireErrCode(t, err, 0x2200, "expected 3")
}

type address struct {
	Street string   `cql:"street"`
	Zip    int      `cql:"zip"`
	Tags   []string `cql:"tags"`
}

type person struct {
	Name string  `cql:"name"`
	Home address `cql:"home"`
}

func TestUDTRoundTrips(t *testing.T) {
	exec(t, "CREATE TYPE IF NOT EXISTS address (street text, zip int, tags frozen<set<text>>)")
	exec(t, "CREATE TYPE IF NOT EXISTS person (name text, home frozen<address>)")
	name := newTable(t, "pk int PRIMARY KEY, p frozen<person>, a address")
	exec(t, "INSERT INTO "+name+" (pk, p, a) VALUES (1, {name: 'Ada', home: {street: 'Main', zip: 1, tags: {'x'}}}, "+
		"{street: 'Side', zip: 2})")
	var p person
	var a address
	scan(t, "SELECT p, a FROM "+name+" WHERE pk = 1", nil, &p, &a)
	assertEqual(t, "person", p, person{Name: "Ada", Home: address{Street: "Main", Zip: 1, Tags: []string{"x"}}})
	assertEqual(t, "address", a, address{Street: "Side", Zip: 2})

	exec(t, "INSERT INTO "+name+" (pk, a) VALUES (?, ?)", 2, address{Street: "Bound", Zip: 9, Tags: []string{"t1", "t2"}})
	exec(t, "UPDATE "+name+" SET a.zip = 10 WHERE pk = 2")
	var back address
	scan(t, "SELECT a FROM "+name+" WHERE pk = 2", nil, &back)
	assertEqual(t, "bound address", back, address{Street: "Bound", Zip: 10, Tags: []string{"t1", "t2"}})
	m := map[string]interface{}{}
	scan(t, "SELECT a FROM "+name+" WHERE pk = 2", nil, &m)
	assertEqual(t, "udt as map", fmt.Sprintf("%v %v", m["street"], m["zip"]), "Bound 10")
}

func TestNullsForEveryType(t *testing.T) {
	types := []string{"ascii", "bigint", "blob", "boolean", "date", "decimal", "double", "duration", "float",
		"inet", "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varint",
		"list<int>", "set<int>", "map<int, int>"} // a null tuple is checked in TestTupleRoundTrips
	var cols, names, marks []string
	values := []interface{}{1}
	for i, typ := range types {
		cols = append(cols, fmt.Sprintf("c%d %s", i, typ))
		names = append(names, fmt.Sprintf("c%d", i))
		marks = append(marks, "?")
		values = append(values, nil)
	}
	name := newTable(t, "pk int PRIMARY KEY, "+strings.Join(cols, ", "))
	exec(t, fmt.Sprintf("INSERT INTO %s (pk, %s) VALUES (?, %s)", name, strings.Join(names, ", "),
		strings.Join(marks, ", ")), values...)
	exec(t, "INSERT INTO "+name+" (pk) VALUES (2)")
	for _, pk := range []int{1, 2} {
		iter := session.Query("SELECT "+strings.Join(names, ", ")+" FROM "+name+" WHERE pk = ?", pk).Iter()
		dest := make([]interface{}, len(names))
		for i := range dest {
			var raw *string // a nil pointer destination stays nil for a null of any type
			dest[i] = &raw
		}
		if !iter.Scan(dest...) {
			t.Fatalf("row %d missing: %v", pk, iter.Close())
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		for i, d := range dest {
			if *(d.(**string)) != nil {
				t.Errorf("row %d column %s (%s) is not null", pk, names[i], types[i])
			}
		}
	}
}

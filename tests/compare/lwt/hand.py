"""Hand-written conditional statements (IF NOT EXISTS, IF EXISTS, conditions, statics, batches, serial reads), each
compared with Cassandra, and the partition read at QUORUM, SERIAL and LOCAL_SERIAL after each group. Exits 1 if any
answer differed other than as docs/cql.md says."""
from lib import *
from cassandra import ConsistencyLevel as CL

TABLES = [
 "CREATE TYPE ut (a int, b text)",
 "CREATE TABLE t (k int, c int, v int, w text, s int static, st text static, l list<int>, m map<text,int>, se set<int>, "
 "fl frozen<list<int>>, fm frozen<map<text,int>>, u ut, fu frozen<ut>, tu tuple<int,text>, PRIMARY KEY (k, c))",
 "CREATE TABLE p (k int PRIMARY KEY, v int, w text, l list<int>, m map<int,int>)",
 "CREATE TABLE cnt (k int, c int, n counter, PRIMARY KEY (k, c))",
 "CREATE TABLE c2 (k int, c1 int, c2 int, v int, s int static, PRIMARY KEY (k, c1, c2))",
]
setup(TABLES)

def read(tbl, k):
    cmp(f"SELECT * FROM {tbl} WHERE k = {k}", cl=CL.QUORUM)
    cmp(f"SELECT * FROM {tbl} WHERE k = {k}", cl=CL.SERIAL)
    cmp(f"SELECT * FROM {tbl} WHERE k = {k}", cl=CL.LOCAL_SERIAL)

def case(tbl, k, stmts):
    for q in stmts:
        cmp(q.replace('K', str(k)) if 'K' in q else q)
    read(tbl, k)

k = 0
def nk():
    global k; k += 1; return k

# 1. INSERT IF NOT EXISTS
case('t', nk(), ["INSERT INTO t (k, c, v) VALUES (K, 1, 1) IF NOT EXISTS",
                 "INSERT INTO t (k, c, v) VALUES (K, 1, 2) IF NOT EXISTS",
                 "INSERT INTO t (k, c, v) VALUES (K, 2, 2) IF NOT EXISTS USING TTL 1000",
                 "INSERT INTO t (k, c, v) VALUES (K, 3, 2) IF NOT EXISTS USING TIMESTAMP 1000",
                 "INSERT INTO t (k, c, v) VALUES (K, 3, 2) IF NOT EXISTS USING TTL 100 AND TIMESTAMP 1000",
                 "INSERT INTO t (k, c, v) VALUES (K, 3, 2) USING TTL 100 IF NOT EXISTS",
                 "INSERT INTO t (k, c, v, s) VALUES (K, 1, 5, 5) IF NOT EXISTS",
                 "SELECT k, c, ttl(v) > 0 FROM t WHERE k = K AND c = 2",
                 ])
case('p', nk(), ["INSERT INTO p (k, v) VALUES (K, 1) IF NOT EXISTS", "INSERT INTO p (k, v, w) VALUES (K, 2, 'x') IF NOT EXISTS",
                 "UPDATE p SET v = 3 WHERE k = K IF EXISTS", "UPDATE p SET v = 3 WHERE k = 999 IF EXISTS",
                 "DELETE FROM p WHERE k = 998 IF EXISTS", "DELETE w FROM p WHERE k = K IF EXISTS",
                 "UPDATE p USING TIMESTAMP 5 SET v = 3 WHERE k = K IF EXISTS",
                 "DELETE FROM p USING TIMESTAMP 5 WHERE k = K IF EXISTS",
                 "UPDATE p USING TTL 100 SET v = 4 WHERE k = K IF EXISTS",
                 "UPDATE p SET v = 5 WHERE k = K IF NOT EXISTS",
                 "DELETE FROM p WHERE k = K IF NOT EXISTS",
                 "DELETE FROM p WHERE k = K IF EXISTS", "DELETE FROM p WHERE k = K IF EXISTS"])
# conditions on regular columns
K = nk()
cmp(f"INSERT INTO p (k, v, w, l, m) VALUES ({K}, 5, 'a', [1,2], {{1:10}})")
for cond in ["v = 5", "v = 6", "v != 5", "v != 6", "v < 6", "v <= 5", "v > 5", "v >= 5", "v IN (1, 5)", "v IN (1, 2)",
             "v IN ()", "v IN (null, 5)", "w = null", "w != null", "w > 'a'", "w < 'b'", "v = null", "v != null", "v > null",
             "v = 5 AND w = 'a'", "v = 5 AND w = 'b'", "w = 'b' AND v = 5", "v = 5 AND v = 6", "v = 5 AND v < 10",
             "l = [1,2]", "l = [1]", "l != [1]", "l IN ([1,2], [3])", "l[0] = 1", "l[1] = 1", "l[5] = 1", "l[5] = null",
             "l[0] > 0", "l[0] IN (1, 2)", "l[-1] = 1", "l[null] = 1", "m[1] = 10", "m[1] = 11", "m[2] = null", "m[1] > 5", "m[1] IN (10)",
             "m[null] = 1", "l CONTAINS 1", "l CONTAINS 3", "m CONTAINS 10", "m CONTAINS KEY 1", "m CONTAINS KEY 2", "v CONTAINS 5",
             "l = null", "l = []", "l != []", "m = {}", "m = {1:10}", "l > [0]", "v = 'a'", "w = 5", "k = 1", "nosuch = 1",
             "v IN ?", "v = 5 OR w = 'a'", "l[0] CONTAINS 1", "v LIKE 'a'", "v NOT IN (1)"]:
    cmp(f"UPDATE p SET v = 5 WHERE k = {K} IF {cond}")
    cmp(f"UPDATE p SET w = 'a' WHERE k = {K} IF {cond}")
read('p', K)
# absent row
for cond in ["v = 5", "v = null", "v != 5", "v != null", "v > 1", "v IN (null)", "l[0] = null", "m[1] = null", "l CONTAINS 1", "l = null"]:
    cmp(f"UPDATE p SET v = 5 WHERE k = 9999 IF {cond}")
    cmp(f"DELETE FROM p WHERE k = 9999 IF {cond}")
read('p', 9999)
# row in t with collections, udt, tuple
K = nk()
cmp(f"INSERT INTO t (k, c, v, l, m, se, fl, fm, u, fu, tu, s) VALUES ({K}, 1, 1, [1,2], {{'a':1}}, {{1,2}}, [3], {{'b':2}}, {{a:1, b:'x'}}, {{a:2, b:'y'}}, (1, 'z'), 7)")
for cond in ["se = {1,2}", "se = {1}", "se CONTAINS 1", "se != {1}", "se IN ({1,2})", "se[1] = 1",
             "fl = [3]", "fl != [3]", "fl IN ([3], [4])", "fl[0] = 3", "fl > [2]", "fl CONTAINS 3", "fm['b'] = 2", "fm = {'b':2}", "fm CONTAINS KEY 'b'",
             "u.a = 1", "u.a = 2", "u.b = 'x'", "u.b > 'a'", "u.c = 1", "u.a IN (1, 2)", "u.a != 1", "u = {a:1, b:'x'}", "u = {a:1}", "u != {a:1, b:'x'}",
             "fu.a = 2", "fu = {a:2, b:'y'}", "fu IN ({a:2, b:'y'})", "fu > {a:1, b:'y'}", "u > {a:0, b:'x'}", "u = null", "u.a = null",
             "tu = (1, 'z')", "tu = (1, 'y')", "tu > (0, 'z')", "tu IN ((1, 'z'))", "tu != (1, 'z')", "v.a = 1", "l.a = 1",
             "s = 7", "s = 8", "s > 6", "st = null", "st != null", "s = 7 AND v = 1", "s = 7 AND v = 2", "v = 1 AND s = 8", "s IN (7)"]:
    cmp(f"UPDATE t SET v = 1 WHERE k = {K} AND c = 1 IF {cond}")
    cmp(f"UPDATE t SET w = 'q' WHERE k = {K} AND c = 1 IF {cond}")
read('t', K)
# statics
K = nk()
cmp(f"INSERT INTO t (k, s) VALUES ({K}, 1)")
for q in ["UPDATE t SET s = 2 WHERE k = K IF s = 1", "UPDATE t SET s = 3 WHERE k = K IF s = 1",
          "UPDATE t SET s = 3 WHERE k = K IF EXISTS", "UPDATE t SET s = 3 WHERE k = K IF NOT EXISTS",
          "UPDATE t SET s = 4 WHERE k = K AND c = 1 IF s = 3", "UPDATE t SET v = 4 WHERE k = K AND c = 1 IF s = 4",
          "UPDATE t SET v = 4 WHERE k = K IF s = 3", "UPDATE t SET v = 4 WHERE k = K AND c = 1 IF EXISTS",
          "UPDATE t SET s = 4 WHERE k = K AND c = 1 IF EXISTS", "UPDATE t SET s = 4 WHERE k = K AND c = 2 IF EXISTS",
          "UPDATE t SET v = 4 WHERE k = K IF v = 3", "UPDATE t SET s = 5 WHERE k = K IF v = 3",
          "INSERT INTO t (k, c, v) VALUES (K, 2, 2) IF NOT EXISTS", "INSERT INTO t (k, c, v) VALUES (K, 2, 3) IF NOT EXISTS",
          "INSERT INTO t (k, s) VALUES (K, 9) IF NOT EXISTS", "INSERT INTO t (k, c, s) VALUES (K, 3, 9) IF NOT EXISTS",
          "DELETE s FROM t WHERE k = K IF s = 5", "DELETE s FROM t WHERE k = K IF s = 4", "DELETE s FROM t WHERE k = K IF EXISTS",
          "DELETE s FROM t WHERE k = K AND c = 2 IF s = 4", "DELETE v FROM t WHERE k = K IF s = 4",
          "DELETE v FROM t WHERE k = K AND c = 2 IF s = null", "DELETE FROM t WHERE k = K IF s = null",
          "DELETE FROM t WHERE k = K AND c = 2 IF s = null", "DELETE FROM t WHERE k = K IF EXISTS",
          "DELETE FROM t WHERE k = K AND c > 0 IF EXISTS", "DELETE FROM t WHERE k = K AND c IN (1, 2) IF EXISTS",
          "UPDATE t SET v = 1 WHERE k = K AND c IN (1, 2) IF v = 1", "UPDATE t SET v = 1 WHERE k IN (K, 1) AND c = 1 IF v = 1"]:
    cmp(q.replace('K', str(K)))
read('t', K)
# partition with only statics, IF EXISTS
K = nk()
cmp(f"INSERT INTO t (k, s) VALUES ({K}, 1)")
for q in ["UPDATE t SET s = 2 WHERE k = K IF EXISTS", "UPDATE t SET v = 2 WHERE k = K AND c = 1 IF EXISTS",
          "DELETE s FROM t WHERE k = K IF EXISTS", "UPDATE t SET s = 2 WHERE k = K IF EXISTS",
          "INSERT INTO t (k, c, v) VALUES (K, 1, 1) IF NOT EXISTS", "UPDATE t SET s = 3 WHERE k = K IF s = 2 AND st = null",
          "UPDATE t SET s = 3, v = 2 WHERE k = K AND c = 1 IF s = 3 AND v = 1", "UPDATE t SET s = 3, v = 2 WHERE k = K AND c = 1 IF s = 2 AND v = 1"]:
    cmp(q.replace('K', str(K)))
read('t', K)
# c2: composite clustering, static
K = nk()
for q in ["INSERT INTO c2 (k, c1, c2, v) VALUES (K, 1, 1, 1) IF NOT EXISTS", "UPDATE c2 SET v = 2 WHERE k = K AND c1 = 1 IF v = 1",
          "UPDATE c2 SET s = 2 WHERE k = K AND c1 = 1 IF s = null", "DELETE FROM c2 WHERE k = K AND c1 = 1 IF EXISTS",
          "DELETE FROM c2 WHERE k = K AND c1 = 1 AND c2 = 1 IF v = 2", "DELETE FROM c2 WHERE k = K AND c1 = 1 AND c2 = 1 IF v = 1",
          "UPDATE c2 SET s = 5 WHERE k = K IF s = 2"]:
    cmp(q.replace('K', str(K)))
read('c2', K)
# counters
cmp("UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF n = 1")
cmp("UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF EXISTS")
cmp("BEGIN COUNTER BATCH UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF EXISTS APPLY BATCH")
cmp("BEGIN BATCH UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1 IF EXISTS APPLY BATCH")
cmp("BEGIN BATCH UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1; INSERT INTO p (k, v) VALUES (1, 1) IF NOT EXISTS APPLY BATCH")
cmp("BEGIN BATCH INSERT INTO p (k, v) VALUES (1, 1) IF NOT EXISTS; UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1 APPLY BATCH")
cmp("BEGIN UNLOGGED BATCH INSERT INTO p (k, v) VALUES (1, 1) IF NOT EXISTS APPLY BATCH")
cmp("BEGIN COUNTER BATCH INSERT INTO p (k, v) VALUES (1, 1) IF NOT EXISTS APPLY BATCH")
# 3. batches
K = nk()
cmp(f"INSERT INTO t (k, c, v, s) VALUES ({K}, 1, 1, 1)")
cmp(f"INSERT INTO t (k, c, v) VALUES ({K}, 2, 2)")
for q in [
 "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (K, 3, 3) IF NOT EXISTS; UPDATE t SET v = 10 WHERE k = K AND c = 1 IF v = 1 APPLY BATCH",
 "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (K, 4, 4) IF NOT EXISTS; UPDATE t SET v = 10 WHERE k = K AND c = 1 IF v = 1 APPLY BATCH",
 "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (K, 3, 3) IF NOT EXISTS; UPDATE t SET v = 11 WHERE k = K AND c = 2 IF v = 5 APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 11 WHERE k = K AND c = 2 IF v = 5; UPDATE t SET v = 11 WHERE k = K AND c = 1 IF w = 'x' APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 11 WHERE k = K AND c = 2 IF v = 5; UPDATE t SET w = 'a' WHERE k = K AND c = 1 IF s = 1 APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 11 WHERE k = K AND c = 2 IF v = 2; UPDATE t SET w = 'a' WHERE k = K AND c = 1 IF s = 1 APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 12 WHERE k = K AND c = 2 IF v = 11 AND s = 2; UPDATE t SET w = 'b' WHERE k = K AND c = 1 IF w = 'a' APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 12 WHERE k = K AND c = 2 IF v = 11; INSERT INTO t (k, c, v) VALUES (K, 9, 9) APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 13 WHERE k = K AND c = 2 IF v = 11; INSERT INTO t (k, c, v) VALUES (K, 10, 9) APPLY BATCH",
 "BEGIN BATCH USING TIMESTAMP 5 UPDATE t SET v = 13 WHERE k = K AND c = 2 IF v = 12 APPLY BATCH",
 "BEGIN BATCH UPDATE t USING TIMESTAMP 5 SET v = 13 WHERE k = K AND c = 2 IF v = 12 APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 13 WHERE k = K AND c = 2 IF v = 12; INSERT INTO t (k, c, v) VALUES (K, 11, 9) USING TIMESTAMP 5 APPLY BATCH",
 "BEGIN BATCH DELETE FROM t WHERE k = K AND c = 9 IF EXISTS; INSERT INTO t (k, c, v) VALUES (K, 9, 19) APPLY BATCH",
 "BEGIN BATCH DELETE FROM t WHERE k = K AND c = 9; INSERT INTO t (k, c, v) VALUES (K, 9, 29) IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH DELETE FROM t WHERE k = K AND c = 9; INSERT INTO t (k, c, w) VALUES (K, 9, 'z'); UPDATE t SET v = 1 WHERE k = K AND c = 2 IF v = 13 APPLY BATCH",
 "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (K, 9, 1) IF NOT EXISTS; UPDATE t SET v = 1 WHERE k = K AND c = 9 IF v = 13 APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 1 WHERE k = K AND c = 9 IF EXISTS; UPDATE t SET v = 1 WHERE k = K AND c = 9 IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 1 WHERE k = K AND c = 9 IF EXISTS; UPDATE t SET w = 'r' WHERE k = K AND c = 9 IF EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 2 WHERE k = K AND c = 9 IF v = 1; UPDATE t SET w = 'r' WHERE k = K AND c = 9 IF w = 'r' APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 2 WHERE k = K AND c = 9 IF v = 7; UPDATE t SET w = 'r' WHERE k = K AND c = 9 IF w = 'r' APPLY BATCH",
 "BEGIN BATCH UPDATE t SET s = 2 WHERE k = K IF s = 1; UPDATE t SET v = 3 WHERE k = K AND c = 1 IF EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET s = 2 WHERE k = K IF s = 7; UPDATE t SET v = 3 WHERE k = K AND c = 1 IF EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET s = 2 WHERE k = K IF s = 7; UPDATE t SET v = 3 WHERE k = K AND c = 77 IF EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET s = 2 WHERE k = K IF s = 7; INSERT INTO t (k, c) VALUES (K, 1) IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET s = 2 WHERE k = K IF EXISTS; INSERT INTO t (k, c) VALUES (K, 1) IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH INSERT INTO t (k, c) VALUES (K, 50) IF NOT EXISTS; INSERT INTO t (k, c) VALUES (K, 51) IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH INSERT INTO t (k, c) VALUES (K, 50) IF NOT EXISTS; INSERT INTO t (k, c) VALUES (K, 51) IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH INSERT INTO t (k, c) VALUES (K, 50) IF NOT EXISTS; INSERT INTO t (k, c) VALUES (K, 52) IF NOT EXISTS APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 1 WHERE k = K AND c = 51 IF v = null; DELETE FROM t WHERE k = K AND c = 50 IF v != null APPLY BATCH",
 "BEGIN BATCH UPDATE t SET v = 1 WHERE k = K AND c IN (51, 52) IF v = null APPLY BATCH",
 "BEGIN BATCH DELETE FROM t WHERE k = K AND c > 50 IF v = 1 APPLY BATCH",
 "BEGIN BATCH DELETE FROM t WHERE k = K IF s = 2 APPLY BATCH",
 "BEGIN BATCH DELETE FROM t WHERE k = K IF EXISTS APPLY BATCH",
]:
    cmp(q.replace('K', str(K)))
    read('t', K)
# Cassandra refuses a conditional batch over several partitions or tables; Ballot runs it as one transaction (docs/cql.md).
# On a partition of its own: what Ballot writes is not in Cassandra's table, so later reads of it would differ too.
K = nk()
for q in ["BEGIN BATCH INSERT INTO t (k, c) VALUES (K, 60) IF NOT EXISTS; INSERT INTO t (k, c) VALUES (1, 61) IF NOT EXISTS APPLY BATCH",
          "BEGIN BATCH INSERT INTO t (k, c) VALUES (K, 60) IF NOT EXISTS; INSERT INTO p (k) VALUES (K) IF NOT EXISTS APPLY BATCH"]:
    cmp(q.replace('K', str(K)), expected="conditional BATCH over several partitions or tables")
# serial consistency errors
cmp(f"UPDATE p SET v = 1 WHERE k = 1 IF EXISTS", cl=CL.SERIAL)
#cmp(f"UPDATE p SET v = 1 WHERE k = 1 IF EXISTS", serial=CL.QUORUM)
cmp(f"UPDATE p SET v = 1 WHERE k = 1 IF EXISTS", cl=CL.LOCAL_QUORUM, serial=CL.LOCAL_SERIAL)
finish()

#!/usr/bin/python3
"""Online maintenance of tables keyed by idgen's types (test/maintenance/run.sh runs this).

For a table keyed by each type (iuid, distid, DistributedId128 in uuid,
base36id, flaxid), each of pg_repack (where the server has it), REINDEX
TABLE CONCURRENTLY and CLUSTER on the id index runs while another session
inserts rows one at a time with the column's DEFAULT.  Each operation is
held at a point where it has begun and cannot finish by a third session's
open transaction (pg_repack waits for older transactions before its swap,
REINDEX CONCURRENTLY for older snapshots, CLUSTER for the lock), and at
least 20 rows are inserted meanwhile (counted, never timed); then the
transaction ends and the operation completes.  Afterwards:

- the table holds exactly the rows it held before and those the inserting
  session was told were inserted (RETURNING): none lost, none twice;
- amcheck's bt_index_check(index, heapallindexed => true) passes for every
  index of the table;
- ORDER BY id read through the index and through a sequential scan and a
  sort give the same ids, in the order of the ids' decoded values
  (test/cdc/cdc.py's codecs, from doc/formats.md), and the rows that were
  there before keep their order; after CLUSTER, a sequential scan returns
  those rows in id order.

Prints "ok - ..." / "not ok - ..." lines, then "maintenance: N passed, M failed".
"""

import os
import subprocess
import sys
import threading

import psycopg2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cdc"))
from cdc import Base36id, Distid, Distid128, Flaxid, Iuid, check, poll  # noqa: E402
import cdc  # noqa: E402

TABLES = [("m_iuid", "iuid", "iuid_generate(7, 9)", Iuid),
          ("m_distid", "distid", "distid_generate()", Distid),
          ("m_distid128", "uuid", "distid128_generate()", Distid128),
          ("m_base36id", "base36id", "base36id_generate()", Base36id),
          ("m_flaxid", "flaxid", "flaxid_generate()", Flaxid)]
ROWS = 600
DURING = 20


def connect():
    c = psycopg2.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"], user="postgres",
                         dbname="postgres")
    c.autocommit = True
    return c


class Inserter(threading.Thread):
    """Inserts one row per transaction until told to stop; keeps the ids it
    was given back."""

    def __init__(self, table):
        super().__init__()
        self.table, self.ids, self.stop, self.error = table, [], threading.Event(), None
        self.conn = connect()
        cur = self.conn.cursor()
        cur.execute("SELECT pg_backend_pid()")
        self.pid = cur.fetchone()[0]

    def run(self):
        cur = self.conn.cursor()
        try:
            while not self.stop.is_set():
                cur.execute("INSERT INTO %s (n) VALUES (%d) RETURNING id::text" % (self.table, len(self.ids)))
                self.ids.append(cur.fetchone()[0])
        except psycopg2.Error as e:
            self.error = e
        self.conn.close()

    def wait_for(self, n):
        """at least n rows inserted (or the inserter failed); bounded polls"""
        return poll(lambda: len(self.ids) >= n or self.error is not None or not self.is_alive(), 3000, 0.01)


class Background(threading.Thread):
    """One SQL statement (or a program) in a thread of its own"""

    def __init__(self, sql=None, argv=None):
        super().__init__()
        self.sql, self.argv, self.error, self.output = sql, argv, None, ""

    def run(self):
        try:
            if self.argv:
                p = subprocess.run(self.argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                self.output = p.stdout
                if p.returncode != 0:
                    self.error = "exit %d" % p.returncode
            else:
                c = connect()
                c.cursor().execute(self.sql)
                c.close()
        except psycopg2.Error as e:
            self.error = e


def ids(cur, table, seqscan=False, order=True):
    """the ids, read through the id index (a sequential scan, sorted when
    order, with seqscan)"""
    if seqscan:
        cur.execute("SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off")
    else:
        cur.execute("SET enable_seqscan = off; SET enable_sort = off; SET enable_bitmapscan = off")
    # AS t: ORDER BY id is the column, not the text
    cur.execute("SELECT id::text AS t FROM %s%s" % (table, " ORDER BY id" if order else ""))
    out = [r[0] for r in cur.fetchall()]
    cur.execute("RESET ALL")
    return out


def operation(cur, table, op):
    """Runs op on table while rows are inserted; returns (ids before, ids
    the inserter got), or None when the operation could not be held."""
    before = ids(cur, table)
    blocker = connect()
    blocker.autocommit = False
    bcur = blocker.cursor()
    ins = Inserter(table)
    ins.start()
    ins.wait_for(DURING)
    if op == "pg_repack":
        # an open transaction that pg_repack waits for before its swap
        bcur.execute("SELECT 1")
        cur.execute("SELECT %s::regclass::oid", (table,))
        oid = cur.fetchone()[0]
        job = Background(argv=[os.path.join(os.environ["PG_BIN"], "pg_repack"), "-h", os.environ["PGHOST"], "-p", os.environ["PGPORT"], "-U", "postgres",
                               "-d", "postgres", "-t", table])
        job.start()
        # its copy of the table exists: it has begun, and waits for blocker
        held = poll(lambda: (cur.execute("SELECT to_regclass('repack.table_%d')" % oid) or cur.fetchone()[0])
                    or not job.is_alive(), 3000, 0.02)
        held = held and job.is_alive()
    elif op == "REINDEX CONCURRENTLY":
        bcur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        bcur.execute("SELECT 1")
        job = Background(sql="REINDEX TABLE CONCURRENTLY %s" % table)
        job.start()
        held = poll(lambda: (cur.execute("SELECT count(*) FROM pg_stat_progress_create_index "
                                         "WHERE relid = %s::regclass AND phase = 'waiting for old snapshots'",
                                         (table,)) or cur.fetchone()[0] > 0) or not job.is_alive(), 3000, 0.02)
        held = held and job.is_alive()
    else:
        bcur.execute("SELECT count(*) FROM %s" % table)
        job = Background(sql="CLUSTER %s USING %s_pkey" % (table, table))
        job.start()
        # CLUSTER waits for the lock, and an insert waits behind it
        held = poll(lambda: (cur.execute("SELECT count(*) FROM pg_locks WHERE relation = %s::regclass "
                                         "AND pid = %s AND NOT granted", (table, ins.pid))
                             or cur.fetchone()[0] > 0) or not job.is_alive(), 3000, 0.02)
        held = held and job.is_alive()
    n0 = len(ins.ids)
    if op != "CLUSTER":
        ins.wait_for(n0 + DURING)
    during = len(ins.ids) - n0
    blocker.commit()
    blocker.close()
    job.join()
    ins.wait_for(len(ins.ids) + DURING)
    ins.stop.set()
    ins.join()
    if op == "CLUSTER":
        during = len(ins.ids) - n0
    check("%s of %s: it began and was held while rows were inserted (%d from then until it ended)"
          % (op, table, during),
          held and (op == "CLUSTER" or during >= DURING))
    check("%s of %s completes" % (op, table), job.error is None, "%s\n%s" % (job.error, job.output))
    check("%s of %s: every insert succeeded (%d)" % (op, table, len(ins.ids)), ins.error is None, ins.error)
    return before, ins.ids


def verify(cur, table, codec, op, before, inserted):
    after = ids(cur, table)
    want = sorted(before + inserted)
    check("%s of %s: no row lost or repeated (%d rows)" % (op, table, len(after)),
          sorted(after) == want and len(set(after)) == len(after),
          "%d rows, %d distinct, %d expected" % (len(after), len(set(after)), len(want)))
    cur.execute("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = %s::regclass ORDER BY 1",
                (table,))
    indexes = [r[0] for r in cur.fetchall()]
    for index in indexes:
        try:
            cur.execute("SELECT bt_index_check(%s::regclass, heapallindexed => true)", (index,))
            error = None
        except psycopg2.Error as e:
            error = e
        check("%s of %s: bt_index_check of %s with heapallindexed passes" % (op, table, index), error is None, error)
    check("%s of %s: its two indexes are there" % (op, table), len(indexes) == 2, indexes)
    seq = ids(cur, table, seqscan=True)
    decoded = sorted(after, key=lambda s: codec.parse(s))
    check("%s of %s: ORDER BY id through the index, through a sort, and by the decoded ids agree"
          % (op, table), after == seq == decoded)
    old = set(before)
    check("%s of %s: the rows that were there keep their order" % (op, table),
          [x for x in after if x in old] == before)
    if op == "CLUSTER":
        heap = [x for x in ids(cur, table, seqscan=True, order=False) if x in old]
        check("CLUSTER of %s: a sequential scan returns the clustered rows in id order" % table,
              heap == before)


def main():
    conn = connect()
    cur = conn.cursor()
    cur.execute("CREATE EXTENSION idgen")
    cur.execute("CREATE EXTENSION amcheck")
    ops = ["REINDEX CONCURRENTLY", "CLUSTER"]
    if os.environ.get("MAINT_REPACK") == "1":
        cur.execute("CREATE EXTENSION pg_repack")
        ops.insert(0, "pg_repack")
    else:
        print("# no pg_repack for this server (Debian packages it for 15 only): REINDEX CONCURRENTLY and CLUSTER")
    for table, coltype, default, codec in TABLES:
        cur.execute("CREATE TABLE %s (id %s PRIMARY KEY DEFAULT %s, n int NOT NULL, pad text)"
                    % (table, coltype, default))
        cur.execute("CREATE INDEX ON %s (n)" % table)
        # rows, then holes for the operations to close
        cur.execute("INSERT INTO %s (n, pad) SELECT g, repeat('x', 200) FROM generate_series(1, %d) g"
                    % (table, ROWS))
        cur.execute("DELETE FROM %s WHERE n %% 3 = 0" % table)
        for op in ops:
            before, inserted = operation(cur, table, op)
            verify(cur, table, codec, op, before, inserted)
    conn.close()
    print("maintenance: %d passed, %d failed" % (cdc.PASSED, cdc.FAILED))
    return 0 if cdc.FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
